import {
  IMPORT_KINDS,
  IMPORT_ON_EXISTING,
  IMPORT_ROW_OUTCOMES,
  IMPORT_ROW_RESULTS,
  IMPORT_STATUSES,
} from '@portal/shared';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestampTz } from './columns.js';
import { organizations } from './tenancy.js';

/** One uploaded file's import: its dry run, then its commit (docs/decisions/036). */
export const imports = pgTable(
  'imports',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    kind: text('kind', { enum: IMPORT_KINDS }).notNull(),
    fileName: text('file_name').notNull(),
    createdBy: uuid('created_by'),
    /** Who committed it: the job acts as them. */
    committedBy: uuid('committed_by'),
    onExisting: text('on_existing', { enum: IMPORT_ON_EXISTING }).notNull(),
    /** The column rows are matched to existing records by (IMPORT_MATCH_COLUMNS). */
    matchBy: text('match_by').notNull(),
    /** Column → the file's header it was read from. */
    mapping: jsonb('mapping').$type<Record<string, string>>().notNull(),
    status: text('status', { enum: IMPORT_STATUSES }).notNull(),
    totalRows: integer('total_rows').notNull(),
    toCreate: integer('to_create').notNull(),
    toUpdate: integer('to_update').notNull(),
    unchanged: integer('unchanged').notNull(),
    errorRows: integer('error_rows').notNull(),
    /** What the commit did, written when it ends. */
    createdCount: integer('created_count').notNull().default(0),
    updatedCount: integer('updated_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    failure: text('failure'),
    createdAt: createdAt(),
    committedAt: timestampTz('committed_at'),
    finishedAt: timestampTz('finished_at'),
  },
  (t) => [
    index('imports_org_created').on(t.organizationId, t.createdAt),
    index('imports_created').on(t.createdAt),
  ],
);

/**
 * One row of an import's file: its values as mapped, what the dry run found, and what the commit
 * did. `result` is written in the transaction that creates (or updates) the record, so a commit run
 * again takes only the rows whose `result` is still null.
 */
export const importRows = pgTable(
  'import_rows',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    /** The row's number in the file, the header being row 1 (as a spreadsheet numbers it). */
    rowNumber: integer('row_number').notNull(),
    values: jsonb('values').$type<Record<string, string>>().notNull(),
    outcome: text('outcome', { enum: IMPORT_ROW_OUTCOMES }).notNull(),
    errors: jsonb('errors').$type<{ column: string; message: string }[]>().notNull(),
    /** The existing record a to_update or unchanged row matched; the created one after the commit. */
    recordId: uuid('record_id'),
    result: text('result', { enum: IMPORT_ROW_RESULTS }),
    resultError: text('result_error'),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.rowNumber] }),
    index('import_rows_pending')
      .on(t.importId, t.rowNumber)
      .where(sql`${t.result} is null and ${t.outcome} in ('to_create', 'to_update')`),
  ],
);
