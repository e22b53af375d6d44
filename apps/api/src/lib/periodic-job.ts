import type { FastifyInstance } from 'fastify';

export interface PeriodicJobOptions {
  /** Off in tests, where suites run the job themselves. */
  enabled: boolean;
  intervalMs: number;
  /** First run after start, so a restart does not wait a whole interval. */
  initialDelayMs: number;
}

export const hourly = { intervalMs: 3_600_000, initialDelayMs: 30_000 };

/**
 * Runs `job` on a timer while the app is up: never two runs at once, a failure logged and the next
 * run kept. The timers are unref'd (they never keep the process alive); closing the app waits for a
 * run in progress. Several API processes may run the same job: each job is safe to run concurrently.
 */
export function runPeriodically(
  app: FastifyInstance,
  name: string,
  options: PeriodicJobOptions,
  job: () => Promise<number>,
) {
  if (!options.enabled) return;
  let timers: NodeJS.Timeout[] = [];
  let running: Promise<void> | null = null;

  const run = () => {
    if (running) return;
    running = job()
      .then((count) => {
        if (count > 0) app.log.info({ job: name, count }, 'periodic job done');
      })
      .catch((error: unknown) => app.log.error({ err: error, job: name }, 'periodic job failed'))
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
