import { can, type Actor, type SystemActor } from '../../core/actor.js';
import { IMPORT_KIND_FEATURE, importFinishedBody, messages, SYSTEM_ROLES } from '@portal/shared';
import { recordActivity } from '../../core/activity-log.repo.js';
import { withDb, type Deps } from '../../core/deps.js';
import { findUserDto } from '../../core/identity/users.repo.js';
import { defineJob } from '../../core/jobs.js';
import { AppError } from '../../lib/errors.js';
import { notifyUser } from '../notifications/index.js';
import type { ImportKindHandler, RowResult } from './import-kind.js';
import { IMPORT_HANDLERS } from './import-kinds.js';
import {
  countResults,
  findImport,
  lockImport,
  lockPendingRows,
  setRowResults,
  updateImport,
  type ImportRecord,
  type RowResultRecord,
} from './imports.repo.js';

/** Rows per transaction unless the kind says otherwise: each row a savepoint, the batch one commit. */
const BATCH_ROWS = 50;
/**
 * The embedded database is one connection: while a batch's transaction holds it, every request waits.
 * There batches stay this small, so a request waits behind one short batch (bench/results/imports.md).
 */
const EMBEDDED_BATCH_ROWS = 25;
/** A run hands over to a fresh job after this long, well inside its queue's expiry. */
const RUN_SLICE_MS = 30_000;

/** Rows a batch takes: the kind's number, and no more than the embedded database's bound on it. */
function batchRows(deps: Deps, handler: ImportKindHandler<unknown>): number {
  const rows = handler.batchRows ?? BATCH_ROWS;
  return deps.dbKind === 'pglite' ? Math.min(rows, EMBEDDED_BATCH_ROWS) : rows;
}

/**
 * The importer as the commit acts: who they are now (active, still holding IMPORT on the kind's feature),
 * not who they were when they clicked. Null when they may no longer import.
 */
async function importerActor(deps: Deps, record: ImportRecord): Promise<Actor | null> {
  const feature = IMPORT_KIND_FEATURE[record.kind];
  const user = record.committedBy ? await findUserDto(deps.db, record.committedBy) : null;
  if (!user || !user.isActive) return null;
  const isSuperAdmin = user.role.name === SYSTEM_ROLES.superAdmin;
  const actor: Actor = {
    kind: 'user',
    userId: user.id,
    organizationId: user.organizationId,
    roleId: user.roleId,
    roleName: user.role.name,
    isSuperAdmin,
    permissions: user.role.permissions,
    // A job has no session: nothing the commit calls ends or reads one.
    sessionId: '',
    familyId: '',
    twoFactor: { enabled: false, required: false },
  };
  const inTenant = isSuperAdmin || user.organizationId === record.organizationId;
  return inTenant && can(actor, feature, 'IMPORT') ? actor : null;
}

/** A row's result as stored. */
function resultRecord(rowNumber: number, done: RowResult | undefined): RowResultRecord {
  // A kind answers for every row it is handed; a row it left out is refused, never taken twice.
  if (!done) return { rowNumber, result: 'failed', recordId: null, resultError: messages.http.internal };
  return done.result === 'failed'
    ? { rowNumber, result: 'failed', recordId: null, resultError: done.error }
    : { rowNumber, result: done.result, recordId: done.recordId, resultError: null };
}

/**
 * One batch's rows, locked, committed by their kind, their results written in the same transaction;
 * what the kind asked to run after the commit runs once it has. Answers how many rows it took.
 */
async function commitBatch(
  deps: Deps,
  importer: Actor,
  handler: ImportKindHandler<unknown>,
  context: unknown,
  record: ImportRecord,
): Promise<number> {
  const { taken, results } = await deps.db.transaction(async (tx) => {
    const rows = await lockPendingRows(tx, record.id, batchRows(deps, handler));
    if (rows.length === 0) return { taken: 0, results: [] };
    const done = await handler.commitRows(withDb(deps, tx), importer, context, rows);
    await setRowResults(
      tx,
      record.id,
      rows.map((row) => resultRecord(row.rowNumber, done.get(row.rowNumber))),
    );
    return { taken: rows.length, results: [...done.values()] };
  });
  for (const result of results) if (result.result !== 'failed') await result.afterCommit?.();
  return taken;
}

/** Ends the import once: its counts, an activity entry and a notice to the importer. */
async function finishImport(deps: Deps, record: ImportRecord, failure: string | null) {
  await deps.db.transaction(async (tx) => {
    const locked = await lockImport(tx, record.id, null);
    if (!locked || locked.status === 'done' || locked.status === 'failed') return;
    const results = await countResults(tx, record.id);
    await updateImport(tx, record.id, {
      status: failure ? 'failed' : 'done',
      failure,
      finishedAt: deps.clock.now(),
      createdCount: results.created,
      updatedCount: results.updated,
      failedCount: results.failed,
    });
    const body = importFinishedBody(record.fileName, results.created, results.updated, results.failed);
    await recordActivity(tx, {
      organizationId: record.organizationId,
      actorUserId: record.committedBy,
      action: 'created',
      entityType: 'import',
      entityId: record.id,
      message: `Imported ${IMPORT_HANDLERS[record.kind].noun} from ${body}${failure ? ` Stopped: ${failure}` : ''}`,
    });
    if (record.committedBy) {
      await notifyUser(
        withDb(deps, tx),
        { kind: 'system', name: 'imports' },
        {
          userId: record.committedBy,
          organizationId: record.organizationId,
          kind: 'import_finished',
          title: messages.imports.finishedTitle,
          body: failure ? `${body} ${failure}` : body,
          link: `/dashboard/imports/${record.kind}/${record.id}`,
        },
      );
    }
  });
}

/**
 * The commit's work: batches of rows, each row's result written in the transaction that creates its
 * record, so a run killed midway and run again takes only the rows still without a result, and two runs
 * at once wait on each other's rows rather than creating them twice. After RUN_SLICE_MS it queues a
 * fresh job for the rest, so no try outlives its queue's expiry.
 */
export async function runImportCommit(deps: Deps, _actor: SystemActor, input: { importId: string }) {
  const record = await findImport(deps.db, input.importId, null);
  if (!record || (record.status !== 'queued' && record.status !== 'running')) return { done: true };
  if (record.status === 'queued') await updateImport(deps.db, record.id, { status: 'running' });
  const importer = await importerActor(deps, record);
  if (!importer) {
    await finishImport(deps, record, messages.imports.importerCannotImport);
    return { done: true };
  }
  const handler = IMPORT_HANDLERS[record.kind] as ImportKindHandler<unknown>;
  let context: unknown;
  try {
    context = await handler.prepareCommit(deps, importer, record);
  } catch (error) {
    if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
    await finishImport(deps, record, error.message);
    return { done: true };
  }
  const deadline = Date.now() + RUN_SLICE_MS;
  while ((await commitBatch(deps, importer, handler, context, record)) > 0) {
    if (Date.now() > deadline) {
      await deps.jobs.send(deps.db, importCommitJob, { importId: record.id });
      return { done: false };
    }
  }
  await finishImport(deps, record, null);
  return { done: true };
}

/** The durable job behind a commit (core/jobs.ts); safe to run twice, and two at once. */
export const importCommitJob = defineJob<{ importId: string }>({
  name: 'imports.commit',
  queue: () => ({ retryLimit: 10, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 60 }),
  run: (deps, actor, job) => runImportCommit(deps, actor, job.data),
});
