import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { scheduledRuns } from '../db/schema/index.js';

/**
 * Claims a scheduled job's slot: true for the first claim, and for a claim of a slot whose run failed
 * or was left running for over an hour (its process died); false while it runs or once it completed.
 */
export async function claimSlot(db: Db, job: string, slot: Date): Promise<boolean> {
  const claimed = await db
    .insert(scheduledRuns)
    .values({ job, slot, outcome: 'running' })
    .onConflictDoUpdate({
      target: [scheduledRuns.job, scheduledRuns.slot],
      set: { outcome: 'running', startedAt: sql`now()`, finishedAt: null, error: null },
      setWhere: sql`${scheduledRuns.outcome} = 'failed' or (${scheduledRuns.outcome} = 'running' and ${scheduledRuns.startedAt} < now() - interval '1 hour')`,
    })
    .returning({ slot: scheduledRuns.slot });
  return claimed.length === 1;
}

export async function finishSlot(
  db: Db,
  job: string,
  slot: Date,
  outcome: { outcome: 'completed'; result: unknown } | { outcome: 'failed'; error: string },
): Promise<void> {
  await db
    .update(scheduledRuns)
    .set({ ...outcome, finishedAt: new Date() })
    .where(and(eq(scheduledRuns.job, job), eq(scheduledRuns.slot, slot)));
}

/** Forgets scheduled runs started before `before` (housekeeping). */
export async function pruneScheduledRuns(deps: { db: Db }, before: Date): Promise<number> {
  const deleted = await deps.db
    .delete(scheduledRuns)
    .where(lt(scheduledRuns.startedAt, before))
    .returning({ job: scheduledRuns.job });
  return deleted.length;
}
