import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  creditNoteSchema,
  idParamsSchema,
  invoiceFilterSchema,
  invoiceListQuerySchema,
  invoiceSchema,
  messages,
  pageSchema,
  refundBodySchema,
  refundResultSchema,
  sellerTaxProfileBodySchema,
  sellerTaxProfileSchema,
  successSchema,
} from '@portal/shared';
import { attachmentDisposition, spreadsheetContentType, spreadsheetFileName } from '../../lib/spreadsheet.js';
import { access, requireActor } from '../../plugins/access.js';
import { tenantScope } from '../../core/actor.js';
import { readIdempotencyKey } from '../billing/idempotency.service.js';
import { invoiceRegister } from './invoice-register.js';
import { creditNotePdf, invoicePdf, listCreditNotes, listInvoices } from './invoices.service.js';
import { refundPayment } from './refunds.service.js';
import { getTaxProfile, saveTaxProfile } from './tax-profile.service.js';

const tags = ['invoices'];

function sendPdf(reply: FastifyReply, document: { fileName: string; pdf: Buffer }) {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', attachmentDisposition(document.fileName))
    .send(document.pdf);
}

/** Tax invoices, credit notes, refunds and the seller's tax profile (docs/product.md, "Tax invoices"). */
export async function invoicesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/tax-profile',
    {
      // The platform operator only (REQUIREMENTS.manageTaxProfile, checked in the service).
      config: { access: access.can('subscriptions', 'UPDATE') },
      schema: {
        tags,
        summary: "The seller's tax particulars every invoice carries (null until set up)",
        response: { 200: successSchema(sellerTaxProfileSchema.nullable()) },
      },
    },
    async (request) => ({ success: true as const, data: await getTaxProfile(app, requireActor(request)) }),
  );

  app.put(
    '/api/auth/tax-profile',
    {
      config: { access: access.can('subscriptions', 'UPDATE') },
      schema: {
        tags,
        summary: "Set the seller's tax particulars: GSTIN (checked), PAN, SAC, prefixes, signatory",
        body: sellerTaxProfileBodySchema,
        response: { 200: successSchema(sellerTaxProfileSchema).extend({ message: z.string() }) },
      },
    },
    async (request) => ({
      success: true as const,
      message: messages.tax.profileSaved,
      data: await saveTaxProfile(app, requireActor(request), request.body),
    }),
  );

  app.get(
    '/api/auth/invoices',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: 'Tax invoices, newest first (own organization; super_admin: all)',
        querystring: invoiceListQuerySchema,
        response: { 200: pageSchema(invoiceSchema) },
      },
    },
    async (request) => {
      const { items, meta } = await listInvoices(app.db, requireActor(request), request.query);
      return { success: true as const, data: items, meta };
    },
  );

  app.get(
    '/api/auth/invoices/export',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary:
          'The invoice register as filtered, as an .xlsx with the GSTR-1 sheets (B2B, B2CL, B2CS, credit notes)',
        querystring: invoiceFilterSchema,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      },
    },
    async (request, reply) => {
      const stream = invoiceRegister(app.db, request.query, tenantScope(requireActor(request)));
      return reply
        .header('Content-Type', spreadsheetContentType('xlsx'))
        .header('Content-Disposition', attachmentDisposition(spreadsheetFileName('gstr1-register', 'xlsx')))
        .send(stream);
    },
  );

  app.get(
    '/api/auth/invoices/:id/pdf',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: 'A tax invoice as a PDF',
        params: idParamsSchema,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) =>
      sendPdf(reply, await invoicePdf(app, request.params.id, tenantScope(requireActor(request)))),
  );

  app.get(
    '/api/auth/credit-notes',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: 'Credit notes, newest first (own organization; super_admin: all)',
        querystring: invoiceListQuerySchema,
        response: { 200: pageSchema(creditNoteSchema) },
      },
    },
    async (request) => {
      const { items, meta } = await listCreditNotes(app.db, requireActor(request), request.query);
      return { success: true as const, data: items, meta };
    },
  );

  app.get(
    '/api/auth/credit-notes/:id/pdf',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: 'A credit note as a PDF',
        params: idParamsSchema,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) =>
      sendPdf(reply, await creditNotePdf(app, request.params.id, tenantScope(requireActor(request)))),
  );

  app.post(
    '/api/auth/payments/:id/refunds',
    {
      // Also needs Organization Management CREATE (platform operator), checked in the service.
      config: { access: access.can('subscriptions', 'UPDATE') },
      schema: {
        tags,
        summary:
          'Refund a captured payment fully or in part (Idempotency-Key required): a credit note, and the refunded share of its credits taken back',
        params: idParamsSchema,
        body: refundBodySchema,
        response: { 201: successSchema(refundResultSchema).extend({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      const auth = requireActor(request);
      const key = readIdempotencyKey(request, true);
      const result = await refundPayment(app, auth, request.params.id, request.body, key);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.status as 201).send(result.body);
    },
  );
}
