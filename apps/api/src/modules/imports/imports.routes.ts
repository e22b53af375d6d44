import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMPORT_KIND_FEATURE,
  IMPORT_KINDS,
  idParamsSchema,
  importColumnsSchema,
  importDetailSchema,
  importFormatQuerySchema,
  importListQuerySchema,
  importSummarySchema,
  messages,
  pageSchema,
  successSchema,
  type ImportKind,
} from '@portal/shared';
import { attachmentDisposition, spreadsheetContentType, spreadsheetFileName } from '../../lib/spreadsheet.js';
import { access, requireActor } from '../../plugins/access.js';
import { acceptUploads, readMultipartForm } from '../../plugins/multipart.js';
import { errorsSheet, importTemplate } from './import-sheets.js';
import {
  commitImport,
  dryRunImport,
  getImport,
  importColumns,
  importErrorRows,
  listImports,
} from './imports.service.js';

const tags = ['imports'];
const SPREADSHEETS = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'];

/** Bulk import with a dry run (README.md here, docs/decisions/036): one set of routes per kind. */
export async function importsRoutes(fastify: FastifyInstance) {
  await acceptUploads(fastify);
  for (const kind of IMPORT_KINDS) kindRoutes(fastify, kind);
}

/** A kind's routes, each needing IMPORT on the kind's feature (users: User Management, and so on). */
function kindRoutes(app: FastifyInstance, kind: ImportKind) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const base = `/api/auth/imports/${kind}`;
  const config = { access: access.can(IMPORT_KIND_FEATURE[kind], 'IMPORT') };

  typed.get(
    `${base}/template`,
    {
      config,
      schema: {
        tags,
        summary: `The ${kind} import template: columns and an example row (.xlsx adds a sheet of each column’s rule)`,
        querystring: importFormatQuerySchema,
        produces: SPREADSHEETS,
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      return reply
        .header('Content-Type', spreadsheetContentType(format))
        .header('Content-Disposition', attachmentDisposition(`${kind}-import-template.${format}`))
        .send(importTemplate(kind, format));
    },
  );

  typed.post(
    `${base}/columns`,
    {
      config,
      schema: {
        tags,
        summary: `A ${kind} file's headers and the header each column matches by itself (multipart, one file); stores nothing`,
        consumes: ['multipart/form-data'],
        response: { 200: successSchema(importColumnsSchema) },
      },
    },
    async (request) => {
      const form = await readMultipartForm(request, messages.imports.fileTooLarge);
      const data = await importColumns(app.deps, requireActor(request), { kind, upload: form.file });
      return { success: true as const, data };
    },
  );

  typed.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: `Dry run of a ${kind} import: multipart with one .xlsx or .csv file (5 MB, 20,000 rows) and optional fields mapping (JSON, column → header), onExisting (skip|update), matchBy, organizationId; creates nothing`,
        consumes: ['multipart/form-data'],
        response: { 201: successSchema(importDetailSchema) },
      },
    },
    async (request, reply) => {
      const form = await readMultipartForm(request, messages.imports.fileTooLarge);
      const data = await dryRunImport(app.deps, requireActor(request), {
        kind,
        upload: form.file,
        fields: form.fields,
      });
      return reply.code(201).send({ success: true as const, data });
    },
  );

  typed.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: `The ${kind} import history, newest first: own organization unless super_admin`,
        querystring: importListQuerySchema,
        response: { 200: pageSchema(importSummarySchema) },
      },
    },
    async (request) => listImports(app.deps, requireActor(request), { ...request.query, kind }),
  );

  typed.get(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: `A ${kind} import: counts, commit progress and its first errors (row, column, message)`,
        params: idParamsSchema,
        response: { 200: successSchema(importDetailSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getImport(app.deps, requireActor(request), { kind, id: request.params.id }),
    }),
  );

  typed.get(
    `${base}/:id/errors`,
    {
      config,
      schema: {
        tags,
        summary: `A ${kind} import's rows with errors as uploaded, with an Error column, as .xlsx (default) or .csv`,
        params: idParamsSchema,
        querystring: importFormatQuerySchema,
        produces: SPREADSHEETS,
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const rows = await importErrorRows(app.deps, requireActor(request), { kind, id: request.params.id });
      return reply
        .header('Content-Type', spreadsheetContentType(format))
        .header(
          'Content-Disposition',
          attachmentDisposition(spreadsheetFileName(`${kind}-import-errors`, format)),
        )
        .send(errorsSheet(kind, format, rows));
    },
  );

  typed.post(
    `${base}/:id/commit`,
    {
      config,
      schema: {
        tags,
        summary: `Commit a ${kind} dry run: a background job creates (or updates) its valid rows; progress at GET ${base}/:id`,
        params: idParamsSchema,
        response: { 202: successSchema(importDetailSchema).extend({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      const data = await commitImport(app.deps, requireActor(request), { kind, id: request.params.id });
      return reply.code(202).send({ success: true as const, data, message: messages.imports.committed });
    },
  );
}
