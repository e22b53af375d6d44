import cronParser from 'cron-parser';
import { and, eq, lt, sql } from 'drizzle-orm';
import { scheduledRuns } from '../db/schema/index.js';
import type { Deps } from './deps.js';
import type { JobRun } from './jobs.js';

/** The schedule slot a scheduled job was queued for: the last cron time at or before it was queued. */
export function slotOf(cron: string, timeZone: string, queuedAt: Date): Date {
  return cronParser
    .parseExpression(cron, { tz: timeZone, currentDate: new Date(queuedAt.getTime() + 1_000) })
    .prev()
    .toDate();
}

/**
 * Runs a scheduled job's work once for its slot, whichever process took the job and however often it
 * was queued: the slot's row is claimed first (a failed run, or one left running longer than an hour
 * by a process that died, may be claimed again), and its outcome is kept.
 */
export async function runOncePerSlot(
  deps: Deps,
  scheduled: { job: string; cron: string; timeZone: string; run: JobRun<unknown> },
  work: () => Promise<unknown>,
): Promise<unknown> {
  const slot = slotOf(scheduled.cron, scheduled.timeZone, scheduled.run.createdOn);
  const claimed = await deps.db
    .insert(scheduledRuns)
    .values({ job: scheduled.job, slot, outcome: 'running' })
    .onConflictDoUpdate({
      target: [scheduledRuns.job, scheduledRuns.slot],
      set: { outcome: 'running', startedAt: sql`now()`, finishedAt: null, error: null },
      setWhere: sql`${scheduledRuns.outcome} = 'failed' or (${scheduledRuns.outcome} = 'running' and ${scheduledRuns.startedAt} < now() - interval '1 hour')`,
    })
    .returning({ slot: scheduledRuns.slot });
  if (claimed.length === 0) return { skipped: 'this slot has run already' };
  const mine = and(eq(scheduledRuns.job, scheduled.job), eq(scheduledRuns.slot, slot));
  try {
    const result = (await work()) ?? null;
    await deps.db
      .update(scheduledRuns)
      .set({ outcome: 'completed', finishedAt: new Date(), result })
      .where(mine);
    return result;
  } catch (error) {
    await deps.db
      .update(scheduledRuns)
      .set({ outcome: 'failed', finishedAt: new Date(), error: error instanceof Error ? error.message : String(error) })
      .where(mine);
    throw error;
  }
}

/** Forgets scheduled runs older than `before` (housekeeping). */
export async function pruneScheduledRuns(deps: Pick<Deps, 'db'>, before: Date): Promise<number> {
  const deleted = await deps.db
    .delete(scheduledRuns)
    .where(lt(scheduledRuns.startedAt, before))
    .returning({ job: scheduledRuns.job });
  return deleted.length;
}
