import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  importDetailSchema,
  importFormatQuerySchema,
  importListQuerySchema,
  importSummarySchema,
  messages,
  pageSchema,
  successSchema,
} from '@portal/shared';
import { attachmentDisposition, spreadsheetContentType, spreadsheetFileName } from '../../lib/spreadsheet.js';
import { access, requireActor } from '../../plugins/access.js';
import { acceptUploads, readMultipartForm } from '../../plugins/multipart.js';
import { errorsSheet, userTemplate } from './import-sheets.js';
import { commitImport, getImport, importErrorRows, listImports } from './imports.service.js';
import { dryRunUserImport } from './user-import.service.js';

const tags = ['imports'];
const SPREADSHEETS = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'];
const canImport = access.can('users', 'IMPORT');

/** Bulk import of users with a dry run (README.md here, docs/decisions/036). */
export async function importsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await acceptUploads(app);

  app.get(
    '/api/auth/imports/users/template',
    {
      config: { access: canImport },
      schema: {
        tags,
        summary:
          'The users import template: columns and an example row (.xlsx adds a sheet of each column’s rule)',
        querystring: importFormatQuerySchema,
        produces: SPREADSHEETS,
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      return reply
        .header('Content-Type', spreadsheetContentType(format))
        .header('Content-Disposition', attachmentDisposition(`users-import-template.${format}`))
        .send(userTemplate(format));
    },
  );

  app.post(
    '/api/auth/imports/users',
    {
      config: { access: canImport },
      schema: {
        tags,
        summary:
          'Dry run of a users import: multipart with one .xlsx or .csv file (5 MB, 20,000 rows) and optional fields mapping (JSON, column → header), onExisting (skip|update), organizationId; creates nothing',
        consumes: ['multipart/form-data'],
        response: { 201: successSchema(importDetailSchema) },
      },
    },
    async (request, reply) => {
      const form = await readMultipartForm(request, messages.imports.fileTooLarge);
      const data = await dryRunUserImport(app.deps, requireActor(request), {
        upload: form.file,
        fields: form.fields,
      });
      return reply.code(201).send({ success: true as const, data });
    },
  );

  app.get(
    '/api/auth/imports',
    {
      config: { access: canImport },
      schema: {
        tags,
        summary: 'Import history, newest first: own organization unless super_admin',
        querystring: importListQuerySchema,
        response: { 200: pageSchema(importSummarySchema) },
      },
    },
    async (request) => listImports(app.deps, requireActor(request), request.query),
  );

  app.get(
    '/api/auth/imports/:id',
    {
      config: { access: canImport },
      schema: {
        tags,
        summary: `An import: counts, commit progress and its first errors (row, column, message)`,
        params: idParamsSchema,
        response: { 200: successSchema(importDetailSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getImport(app.deps, requireActor(request), request.params),
    }),
  );

  app.get(
    '/api/auth/imports/:id/errors',
    {
      config: { access: canImport },
      schema: {
        tags,
        summary: 'The rows with errors as uploaded, with an Error column, as .xlsx (default) or .csv',
        params: idParamsSchema,
        querystring: importFormatQuerySchema,
        produces: SPREADSHEETS,
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const rows = await importErrorRows(app.deps, requireActor(request), request.params);
      return reply
        .header('Content-Type', spreadsheetContentType(format))
        .header('Content-Disposition', attachmentDisposition(spreadsheetFileName('import-errors', format)))
        .send(errorsSheet(format, rows));
    },
  );

  app.post(
    '/api/auth/imports/:id/commit',
    {
      config: { access: canImport },
      schema: {
        tags,
        summary:
          'Commit a dry run: a background job creates (or updates) its valid rows; progress at GET /imports/:id',
        params: idParamsSchema,
        response: { 202: successSchema(importDetailSchema).extend({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      const data = await commitImport(app.deps, requireActor(request), request.params);
      return reply.code(202).send({ success: true as const, data, message: messages.imports.committed });
    },
  );
}
