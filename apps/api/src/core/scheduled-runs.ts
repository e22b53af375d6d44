import cronParser from 'cron-parser';
import type { Deps } from './deps.js';
import type { JobRun } from './jobs.js';
import { claimSlot, finishSlot } from './scheduled-runs.repo.js';

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
  if (!(await claimSlot(deps.db, scheduled.job, slot))) return { skipped: 'this slot has run already' };
  try {
    const result = (await work()) ?? null;
    await finishSlot(deps.db, scheduled.job, slot, { outcome: 'completed', result });
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await finishSlot(deps.db, scheduled.job, slot, { outcome: 'failed', error: message });
    throw error;
  }
}
