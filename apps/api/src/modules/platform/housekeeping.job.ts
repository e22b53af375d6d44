import { defineJob } from '../../core/jobs.js';
import { runHousekeeping, type Pruner } from './housekeeping.service.js';

/** The hourly housekeeping, once per hour across every process; each module's pruner runs in it. */
export function housekeepingJob(pruners: readonly Pruner[]) {
  return defineJob<Record<string, never>>({
    name: 'platform.housekeeping',
    schedule: '0 * * * *',
    queue: () => ({ retryLimit: 2, retryDelaySeconds: 300, retryBackoff: false, expireInSeconds: 900 }),
    run: (deps, actor) => runHousekeeping(deps, actor, { now: new Date(), pruners }),
  });
}
