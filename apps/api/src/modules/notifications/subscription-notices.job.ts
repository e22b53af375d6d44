import { defineJob } from '../../core/jobs.js';
import { sweepSubscriptionNotices } from './notifications.service.js';

/** Subscription expiring and expired notices, hourly; the notices are deduplicated in the database. */
export const subscriptionNoticesJob = defineJob<Record<string, never>>({
  name: 'notifications.subscription-notices',
  schedule: '5 * * * *',
  queue: () => ({ retryLimit: 2, retryDelaySeconds: 300, retryBackoff: false, expireInSeconds: 900 }),
  run: async (deps, actor) => ({ noticed: await sweepSubscriptionNotices(deps, actor, { now: new Date() }) }),
});
