import type { FastifyInstance } from 'fastify';
import { sweepSubscriptionNotices } from './notifications.service.js';

export interface NoticeSweeperOptions {
  /** Off in tests, where suites run the sweep themselves. */
  enabled: boolean;
  intervalMs: number;
  /** First run after start, so a restart does not wait a whole interval. */
  initialDelayMs: number;
}

export const defaultSweeperOptions = { intervalMs: 3_600_000, initialDelayMs: 30_000 };

/**
 * Runs `sweepSubscriptionNotices` on a timer while the app is up. The timers are unref'd (they never
 * keep the process alive) and several processes may run it at once: the notices are deduplicated in
 * the database.
 */
export async function noticeSweeper(app: FastifyInstance, options: NoticeSweeperOptions) {
  if (!options.enabled) return;
  let timers: NodeJS.Timeout[] = [];
  let running: Promise<void> | null = null;

  const run = () => {
    if (running) return;
    running = sweepSubscriptionNotices(app.db, new Date())
      .then((count) => {
        if (count > 0) app.log.info({ count }, 'subscription notices sent');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'subscription notice sweep failed'))
      .finally(() => {
        running = null;
      });
  };

  app.addHook('onReady', async () => {
    timers = [setTimeout(run, options.initialDelayMs).unref(), setInterval(run, options.intervalMs).unref()];
  });
  app.addHook('onClose', async () => {
    for (const t of timers) clearTimeout(t);
    timers = [];
    await running;
  });
}
