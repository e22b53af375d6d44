import type { SystemActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { pruneRateLimitWindows } from '../../core/rate-limits.repo.js';
import { pruneScheduledRuns } from '../../core/scheduled-runs.repo.js';
import { vacuumAnalyze } from './housekeeping.repo.js';

/**
 * A module's share of the housekeeping: deletes its rows no request can use any more, so its tables
 * do not grow for ever, and returns how many went. Safe to run from several processes at once. Each
 * module writes only its own tables, so the route table hands platform every module's pruner.
 */
export interface Pruner {
  name: string;
  prune: (deps: Deps, actor: SystemActor, input: { now: Date }) => Promise<number>;
}

/**
 * One run of the housekeeping: every pruner, the rate-limit windows, scheduled runs past the jobs'
 * retention (pg-boss deletes finished jobs after the same), and on the embedded database
 * what PostgreSQL's autovacuum does elsewhere. PGlite runs no autovacuum: without this its planner
 * never has column statistics (how common a value is, which decides between an index and a scan) for
 * tables that grew, and the row versions that sign-ins and refreshes replace (rate-limit windows,
 * rotated sessions) are never reclaimed. At 100,000 users and 100,000 activity entries it takes
 * 0.3–0.5 s, once an hour. Returns how many rows each pruner deleted.
 */
export async function runHousekeeping(
  deps: Deps,
  actor: SystemActor,
  input: { now: Date; pruners: readonly Pruner[] },
): Promise<Record<string, number>> {
  const retention = new Date(input.now.getTime() - deps.config.jobs.retentionDays * 86_400_000);
  const counts = await Promise.all([
    pruneRateLimitWindows(deps.db, input.now),
    pruneScheduledRuns(deps, retention),
    ...input.pruners.map((pruner) => pruner.prune(deps, actor, { now: input.now })),
  ]);
  if (deps.dbKind === 'pglite') await vacuumAnalyze(deps.db);
  return Object.fromEntries(
    ['rateLimitWindows', 'scheduledRuns', ...input.pruners.map((pruner) => pruner.name)].map((name, i) => [
      name,
      counts[i]!,
    ]),
  );
}
