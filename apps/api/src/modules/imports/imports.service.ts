import {
  IMPORT_MATCH_COLUMNS,
  importOptionsSchema,
  messages,
  type ImportColumns,
  type ImportDetail,
  type ImportKind,
  type ImportListQuery,
  type ImportOptions,
  type ImportSummary,
} from '@portal/shared';
import { badRequest, conflict, invalidInput, notFound } from '../../lib/errors.js';
import type { Upload } from '../../lib/upload.js';
import { pageEnvelope } from '../../lib/paging.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { findOrganization } from '../organizations/index.js';
import { importCommitJob } from './import-commit.service.js';
import { importDetail, importSummaries, rowErrors } from './import-answer.js';
import {
  mapColumns,
  mappedHeaders,
  storableValues,
  suggestedMapping,
  tableRows,
  type RowValues,
} from './import-columns.js';
import { readSpreadsheet } from './import-file.js';
import type { TargetOrganization } from './import-kind.js';
import { IMPORT_HANDLERS } from './import-kinds.js';
import {
  errorRowsAfter,
  findImport,
  insertImport,
  listImportPage,
  lockImport,
  updateImport,
  type NewImportRow,
} from './imports.repo.js';

/** The form's text fields as options: `mapping` is JSON (column → header); matchBy one of the kind's. */
function importOptions(
  kind: ImportKind,
  fields: Record<string, string>,
): ImportOptions & { matchBy: string } {
  let mapping: unknown = undefined;
  if (fields.mapping !== undefined && fields.mapping.trim() !== '') {
    try {
      mapping = JSON.parse(fields.mapping);
    } catch {
      throw badRequest(messages.imports.invalidMapping, { mapping: [messages.imports.invalidMapping] });
    }
  }
  const parsed = importOptionsSchema.safeParse({
    mapping,
    onExisting: fields.onExisting || undefined,
    matchBy: fields.matchBy || undefined,
    organizationId: fields.organizationId || undefined,
  });
  if (!parsed.success) throw invalidInput(parsed.error.issues);
  const matchColumns: readonly string[] = IMPORT_MATCH_COLUMNS[kind];
  const matchBy = parsed.data.matchBy ?? matchColumns[0]!;
  if (!matchColumns.includes(matchBy)) {
    throw badRequest(messages.imports.invalidOptions, { matchBy: [messages.imports.invalidMatchBy] });
  }
  if (parsed.data.organizationId !== undefined && !IMPORT_HANDLERS[kind].intoOrganization) {
    throw badRequest(messages.imports.invalidOptions, { organizationId: [messages.imports.invalidOptions] });
  }
  return { ...parsed.data, matchBy };
}

/**
 * The organization imported into: the actor's own, or any for the super administrator; another's is
 * 404. Organizations are imported by the platform, into nothing: the record belongs to the importer's.
 */
async function targetOrganization(deps: Deps, actor: Actor, organizationId: string | undefined) {
  const id = organizationId ?? actor.organizationId;
  const scope = tenantScope(actor);
  const organization = scope !== null && id !== scope ? null : await findOrganization(deps, actor, { id });
  if (!organization) throw notFound(messages.users.organizationNotFound);
  return organization satisfies TargetOrganization;
}

/** An import of this kind, visible to the actor; another tenant's, or another kind's, is 404. */
async function visibleImport(deps: Deps, actor: Actor, kind: ImportKind, id: string) {
  const record = await findImport(deps.db, id, tenantScope(actor));
  if (!record || record.kind !== kind) throw notFound(messages.imports.notFound);
  return record;
}

/** POST /api/auth/imports/:kind/columns: the file's headers and the header each column matched by itself. */
export async function importColumns(
  _deps: Deps,
  _actor: Actor,
  input: { kind: ImportKind; upload: Upload | null },
): Promise<ImportColumns> {
  if (!input.upload) throw badRequest(messages.imports.fileRequired);
  const handler = IMPORT_HANDLERS[input.kind];
  const table = await readSpreadsheet(input.upload.data);
  return {
    headers: table.headers,
    mapping: suggestedMapping(table.headers, handler.columns, handler.aliases),
  };
}

/**
 * POST /api/auth/imports/:kind: the dry run. Reads the file (hostile ones answer 4xx before anything
 * is read from the database), checks every row as the kind does, and stores the import with each
 * row's outcome; nothing is created or changed.
 */
export async function dryRunImport(
  deps: Deps,
  actor: Actor,
  input: { kind: ImportKind; upload: Upload | null; fields: Record<string, string> },
): Promise<ImportDetail> {
  const handler = IMPORT_HANDLERS[input.kind];
  const options = importOptions(input.kind, input.fields);
  if (!input.upload) throw badRequest(messages.imports.fileRequired);
  const organization = await targetOrganization(deps, actor, options.organizationId);
  const table = await readSpreadsheet(input.upload.data);
  const found = mapColumns(table.headers, options.mapping, handler.columns, handler.aliases);
  const rows = tableRows(table, found);

  const checked = await handler.checkRows(deps, actor, {
    organization,
    rows,
    onExisting: options.onExisting,
    matchBy: options.matchBy,
  });
  const counts = { to_create: 0, to_update: 0, unchanged: 0, error: 0 };
  const stored: NewImportRow[] = rows.map((row, i) => {
    const { outcome, errors, recordId } = checked[i]!;
    counts[outcome]++;
    return { rowNumber: row.rowNumber, values: storableValues(row.values), outcome, errors, recordId };
  });
  const record = await deps.db.transaction((tx) =>
    insertImport(
      tx,
      {
        organizationId: organization.id,
        kind: input.kind,
        fileName: input.upload!.fileName,
        createdBy: actor.userId,
        onExisting: options.onExisting,
        matchBy: options.matchBy,
        mapping: mappedHeaders(table.headers, found),
        status: 'dry_run',
        totalRows: rows.length,
        toCreate: counts.to_create,
        toUpdate: counts.to_update,
        unchanged: counts.unchanged,
        errorRows: counts.error,
      },
      stored,
    ),
  );
  return importDetail(deps.db, record);
}

/** GET /api/auth/imports/:kind: the kind's history, newest first; the super administrator sees every organization's. */
export async function listImports(deps: Deps, actor: Actor, query: ImportListQuery & { kind: ImportKind }) {
  const { rows, total } = await listImportPage(deps.db, tenantScope(actor), query.kind, query);
  return pageEnvelope<ImportSummary>(query, await importSummaries(deps.db, rows), total);
}

/** GET /api/auth/imports/:kind/:id: the import, its progress and its first errors. */
export async function getImport(
  deps: Deps,
  actor: Actor,
  input: { kind: ImportKind; id: string },
): Promise<ImportDetail> {
  return importDetail(deps.db, await visibleImport(deps, actor, input.kind, input.id));
}

/**
 * POST /api/auth/imports/:kind/:id/commit: queues the job that creates (and updates) the import's
 * valid rows, in the same transaction that marks it queued, so a second commit is a 409.
 */
export async function commitImport(
  deps: Deps,
  actor: Actor,
  input: { kind: ImportKind; id: string },
): Promise<ImportDetail> {
  const record = await deps.db.transaction(async (tx) => {
    const found = await lockImport(tx, input.id, tenantScope(actor));
    if (!found || found.kind !== input.kind) throw notFound(messages.imports.notFound);
    if (found.status !== 'dry_run') throw conflict(messages.imports.notDryRun);
    if (found.toCreate + found.toUpdate === 0) throw conflict(messages.imports.nothingToCommit);
    const changes = { status: 'queued' as const, committedBy: actor.userId, committedAt: deps.clock.now() };
    await updateImport(tx, found.id, changes);
    await deps.jobs.send(tx, importCommitJob, { importId: found.id });
    return { ...found, ...changes };
  });
  return importDetail(deps.db, record);
}

/** A row of the errors file: the values as uploaded and what is wrong with them. */
export interface ErrorFileRow {
  values: RowValues;
  error: string;
}

/**
 * GET /api/auth/imports/:kind/:id/errors: the rows with errors, in file order, read in batches. The
 * import is looked up now, so another tenant's is a 404 answer rather than a broken download.
 */
export async function importErrorRows(
  deps: Deps,
  actor: Actor,
  input: { kind: ImportKind; id: string },
): Promise<AsyncIterable<ErrorFileRow>> {
  const record = await visibleImport(deps, actor, input.kind, input.id);
  return (async function* () {
    let after = 0;
    for (;;) {
      const batch = await errorRowsAfter(deps.db, record.id, after, 1_000);
      for (const row of batch) {
        const error = rowErrors(row)
          .map((e) => `${e.column}: ${e.message}`)
          .join('; ');
        yield { values: row.values, error };
      }
      if (batch.length < 1_000) return;
      after = batch.at(-1)!.rowNumber;
    }
  })();
}
