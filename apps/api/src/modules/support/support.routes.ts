import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createTicketBodySchema,
  idParamsSchema,
  messages,
  okSchema,
  pageSchema,
  successSchema,
  ticketExportQuerySchema,
  ticketListQuerySchema,
  ticketSchema,
  ticketStatusBodySchema,
} from '@portal/shared';
import { invalidInput } from '../../lib/errors.js';
import { pageEnvelope } from '../../lib/paging.js';
import {
  attachmentDisposition,
  spreadsheetContentType,
  spreadsheetFileName,
  streamSpreadsheet,
} from '../../lib/spreadsheet.js';
import type { Upload } from '../../lib/upload.js';
import { access, requireActor } from '../../plugins/access.js';
import { acceptUploads, readMultipartForm } from '../../plugins/multipart.js';
import * as service from './support.service.js';

const tags = ['support'];

export async function supportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await acceptUploads(app);

  app.get(
    '/api/auth/support/tickets',
    {
      config: { access: access.can('support', 'READ') },
      schema: {
        tags,
        summary:
          'Tickets of the caller’s organization (every organization for super_admin), newest update first',
        querystring: ticketListQuerySchema,
        response: { 200: pageSchema(ticketSchema) },
      },
    },
    async (request) => {
      const { items, total } = await service.listOrganizationTickets(
        app.deps,
        requireActor(request),
        request.query,
      );
      return pageEnvelope(request.query, items, total);
    },
  );

  app.get(
    '/api/auth/support/tickets/export',
    {
      config: { access: access.can('support', 'EXPORT') },
      schema: {
        tags,
        summary: 'The ticket list as filtered, as an .xlsx (default) or .csv download',
        querystring: ticketExportQuerySchema,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'],
      },
    },
    async (request, reply) => {
      const { format, search, status } = request.query;
      const { columns, rows } = service.exportTickets(app.deps, requireActor(request), { search, status });
      const stream = streamSpreadsheet({ format, sheetName: 'Tickets', columns, rows });
      return reply
        .header('Content-Type', spreadsheetContentType(format))
        .header('Content-Disposition', attachmentDisposition(spreadsheetFileName('tickets', format)))
        .send(stream);
    },
  );

  app.post(
    '/api/auth/support/tickets',
    {
      config: { access: access.can('support', 'CREATE') },
      schema: {
        tags,
        summary:
          'Raise a ticket: JSON {message, type} or multipart with fields message, type and one optional file (PDF, DOC, DOCX, PNG, JPEG; 5 MB)',
        consumes: ['application/json', 'multipart/form-data'],
        response: { 201: successSchema(ticketSchema).extend({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      let fields: unknown = request.body ?? {};
      let upload: Upload | null = null;
      if (request.isMultipart()) {
        const form = await readMultipartForm(request, messages.support.fileTooLarge);
        fields = form.fields;
        upload = form.file;
      }
      const parsed = createTicketBodySchema.safeParse(fields);
      if (!parsed.success) throw invalidInput(parsed.error.issues);
      const ticket = await service.createTicket(app.deps, actor, { body: parsed.data, upload });
      reply.status(201);
      return {
        success: true as const,
        message:
          ticket.ticketType === 'callback' ? messages.support.callbackRequested : messages.support.submitted,
        data: ticket,
      };
    },
  );

  app.get(
    '/api/auth/support/tickets/:id',
    {
      config: { access: access.can('support', 'READ') },
      schema: {
        tags,
        summary: 'One ticket',
        params: idParamsSchema,
        response: { 200: successSchema(ticketSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.getTicket(app.deps, requireActor(request), request.params),
    }),
  );

  app.put(
    '/api/auth/support/tickets/:id/status',
    {
      config: { access: access.can('support', 'UPDATE') },
      schema: {
        tags,
        summary: 'Activate or deactivate a ticket',
        params: idParamsSchema,
        body: ticketStatusBodySchema,
        response: { 200: successSchema(ticketSchema).extend({ message: z.string() }) },
      },
    },
    async (request) => {
      const ticket = await service.changeTicketStatus(app.deps, requireActor(request), {
        id: request.params.id,
        status: request.body.status,
      });
      return {
        success: true as const,
        message: ticket.status === 'Active' ? messages.support.activated : messages.support.deactivated,
        data: ticket,
      };
    },
  );

  app.delete(
    '/api/auth/support/tickets/:id',
    {
      config: { access: access.can('support', 'DELETE') },
      schema: {
        tags,
        summary: 'Delete a ticket and its attachment',
        params: idParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.deleteTicket(app.deps, requireActor(request), request.params);
      return { success: true as const, message: messages.support.deleted };
    },
  );
}
