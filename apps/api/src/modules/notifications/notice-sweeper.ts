import type { FastifyInstance } from 'fastify';
import { runPeriodically, type PeriodicJobOptions } from '../../lib/periodic-job.js';
import { sweepSubscriptionNotices } from './notifications.service.js';

/** Runs `sweepSubscriptionNotices` on a timer; the notices are deduplicated in the database. */
export async function noticeSweeper(app: FastifyInstance, options: PeriodicJobOptions) {
  runPeriodically(app, 'subscription notices', options, () => sweepSubscriptionNotices(app.db, new Date()));
}
