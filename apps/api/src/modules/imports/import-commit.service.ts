import { can, type Actor, type SystemActor } from '../../core/actor.js';
import { importFinishedBody, messages, SYSTEM_ROLES } from '@portal/shared';
import { recordActivity } from '../../core/activity-log.repo.js';
import { withDb, type Deps } from '../../core/deps.js';
import { findUserDto } from '../../core/identity/users.repo.js';
import { defineJob } from '../../core/jobs.js';
import { AppError } from '../../lib/errors.js';
import { notifyUser } from '../notifications/index.js';
import { findOrganization } from '../organizations/index.js';
import { createUserIn, importableRoles, updateUser, type ImportableRole } from '../users/index.js';
import {
  countResults,
  findImport,
  lockImport,
  lockPendingRows,
  setRowResult,
  updateImport,
  type ImportRecord,
  type ImportRowRecord,
} from './imports.repo.js';
import type { UserRowValues } from './user-rows.js';

/** Rows per transaction: each row a savepoint, the batch one commit. */
const BATCH_ROWS = 50;
/** A run hands over to a fresh job after this long, well inside its queue's expiry. */
const RUN_SLICE_MS = 30_000;

/**
 * The importer as the commit acts: who they are now (active, still holding User Management IMPORT),
 * not who they were when they clicked. Null when they may no longer import.
 */
async function importerActor(deps: Deps, record: ImportRecord): Promise<Actor | null> {
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
  return inTenant && can(actor, 'users', 'IMPORT') ? actor : null;
}

/** One row: the user created (or updated) and its result recorded, or the refusal recorded. */
async function commitRow(
  deps: Deps,
  importer: Actor,
  context: { record: ImportRecord; organizationName: string; roles: Map<string, ImportableRole> },
  row: ImportRowRecord,
) {
  const values = row.values as UserRowValues;
  const role = context.roles.get(values.role.trim().toLowerCase());
  try {
    if (!role || !role.withinActor) throw new AppError(400, messages.imports.unknownRole, 'BAD_REQUEST');
    if (row.outcome === 'to_create') {
      const { user } = await createUserIn(deps, importer, {
        email: values.email,
        username: values.username,
        mobileNo: values.mobile,
        client: context.organizationName,
        organizationId: context.record.organizationId,
        roleId: role.id,
      });
      await setRowResult(deps.db, row.importId, row.rowNumber, { result: 'created', userId: user.id });
    } else {
      await updateUser(deps, importer, {
        id: row.userId!,
        body: { username: values.username.trim(), mobileNo: values.mobile.trim(), roleId: role.id },
      });
      await setRowResult(deps.db, row.importId, row.rowNumber, { result: 'updated' });
    }
  } catch (error) {
    // A refusal (taken meanwhile, role gone) is this row's result; anything else retries the batch.
    if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
    await setRowResult(deps.db, row.importId, row.rowNumber, {
      result: 'failed',
      resultError: error.message,
    });
  }
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
      message: `Imported users from ${body}${failure ? ` Stopped: ${failure}` : ''}`,
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
          link: `/dashboard/imports/${record.id}`,
        },
      );
    }
  });
}

/**
 * The commit's work: batches of rows, each row's result written in the transaction that creates its
 * user, so a run killed midway and run again takes only the rows still without a result, and two runs
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
  const organization = await findOrganization(deps, importer, { id: record.organizationId });
  if (!organization) {
    await finishImport(deps, record, messages.users.organizationNotFound);
    return { done: true };
  }
  const roles = await importableRoles(deps, importer, { organization });
  const context = { record, organizationName: organization.name, roles };
  const deadline = Date.now() + RUN_SLICE_MS;
  for (;;) {
    const taken = await deps.db.transaction(async (tx) => {
      const rows = await lockPendingRows(tx, record.id, BATCH_ROWS);
      for (const row of rows) await commitRow(withDb(deps, tx), importer, context, row);
      return rows.length;
    });
    if (taken === 0) break;
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
  queue: () => ({ retryLimit: 10, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 120 }),
  run: (deps, actor, job) => runImportCommit(deps, actor, job.data),
});
