import { messages, type ImportDetail, type ImportListQuery, type ImportSummary } from '@portal/shared';
import { conflict, notFound } from '../../lib/errors.js';
import { pageEnvelope } from '../../lib/paging.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { importCommitJob } from './import-commit.service.js';
import { importDetail, importSummaries, rowErrors } from './import-answer.js';
import { errorRowsAfter, findImport, listImportPage, lockImport, updateImport } from './imports.repo.js';
import type { UserRowValues } from './user-rows.js';

/** GET /api/auth/imports: the history, newest first; the super administrator sees every organization's. */
export async function listImports(deps: Deps, actor: Actor, query: ImportListQuery) {
  const { rows, total } = await listImportPage(deps.db, tenantScope(actor), query);
  return pageEnvelope<ImportSummary>(query, await importSummaries(deps.db, rows), total);
}

/** GET /api/auth/imports/:id: the import, its progress and its first errors; another tenant's is 404. */
export async function getImport(deps: Deps, actor: Actor, input: { id: string }): Promise<ImportDetail> {
  const record = await findImport(deps.db, input.id, tenantScope(actor));
  if (!record) throw notFound(messages.imports.notFound);
  return importDetail(deps.db, record);
}

/**
 * POST /api/auth/imports/:id/commit: queues the job that creates (and updates) the import's valid
 * rows, in the same transaction that marks it queued, so a second commit is a 409.
 */
export async function commitImport(deps: Deps, actor: Actor, input: { id: string }): Promise<ImportDetail> {
  const record = await deps.db.transaction(async (tx) => {
    const found = await lockImport(tx, input.id, tenantScope(actor));
    if (!found) throw notFound(messages.imports.notFound);
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
  values: UserRowValues;
  error: string;
}

/**
 * GET /api/auth/imports/:id/errors: the rows with errors, in file order, read in batches. The import
 * is looked up now, so another tenant's is a 404 answer rather than a broken download.
 */
export async function importErrorRows(
  deps: Deps,
  actor: Actor,
  input: { id: string },
): Promise<AsyncIterable<ErrorFileRow>> {
  const record = await findImport(deps.db, input.id, tenantScope(actor));
  if (!record) throw notFound(messages.imports.notFound);
  return (async function* () {
    let after = 0;
    for (;;) {
      const batch = await errorRowsAfter(deps.db, record.id, after, 1_000);
      for (const row of batch) {
        const error = rowErrors(row)
          .map((e) => `${e.column}: ${e.message}`)
          .join('; ');
        yield { values: row.values as UserRowValues, error };
      }
      if (batch.length < 1_000) return;
      after = batch.at(-1)!.rowNumber;
    }
  })();
}
