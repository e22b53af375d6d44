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
  sellerTaxProfileBodySchema,
  sellerTaxProfileSchema,
  successSchema,
} from '@portal/shared';
import { attachmentDisposition, spreadsheetContentType, spreadsheetFileName } from '../../lib/spreadsheet.js';
import { access, requireActor } from '../../plugins/access.js';
import { creditNotePdf, listCreditNotes } from './credit-notes.service.js';
import type { DocumentPdf } from './document-pdfs.js';
import { exportInvoiceRegister, invoicePdf, listInvoices } from './invoices.service.js';
import { getTaxProfile, saveTaxProfile } from './tax-profile.service.js';

const tags = ['invoices'];

function sendPdf(reply: FastifyReply, document: DocumentPdf) {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', attachmentDisposition(document.fileName))
    .send(document.pdf);
}

/**
 * Tax invoices, credit notes and the seller's tax profile (docs/product.md, "Tax invoices"). Refunds,
 * which issue credit notes, are a payments URL and live in billing.
 */
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
    async (request) => ({
      success: true as const,
      data: await getTaxProfile(app.deps, requireActor(request)),
    }),
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
      data: await saveTaxProfile(app.deps, requireActor(request), request.body),
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
    async (request) => listInvoices(app.deps, requireActor(request), request.query),
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
      const stream = exportInvoiceRegister(app.deps, requireActor(request), request.query);
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
      sendPdf(reply, await invoicePdf(app.deps, requireActor(request), { id: request.params.id })),
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
    async (request) => listCreditNotes(app.deps, requireActor(request), request.query),
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
      sendPdf(reply, await creditNotePdf(app.deps, requireActor(request), { id: request.params.id })),
  );
}
