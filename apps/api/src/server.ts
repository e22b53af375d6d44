// First: it starts tracing, when configured, before the modules below load http and pg.
import { tracing } from './core/tracing/preload.js';
import { buildApp } from './app.js';
import { defaultConfig } from './core/config.js';
import { createMetrics, listenForScrapes, type ScrapeServer } from './core/metrics/index.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { openConfiguredDatabase } from './db/open-configured-database.js';
import { seed } from './db/seed.js';
import { ConfigError, loadEnv } from './env.js';
import { createPasswordHasher } from './lib/passwords.js';

/** Longer than the jobs' own shutdown (config.jobs.shutdownMs), with room for requests and the database. */
const SHUTDOWN_LIMIT_MS = 30_000;

async function main() {
  const env = loadEnv();
  const { database, dataDir, unlock } = await openConfiguredDatabase(env);
  await database.migrate();
  const seeded = await seed(database.db, createPasswordHasher(), {
    email: env.ADMIN_EMAIL,
    password: env.ADMIN_PASSWORD,
  });

  const metrics = createMetrics({ process: true });
  const app = await buildApp({
    env,
    database,
    metrics,
    tracing,
    serveWeb: true,
    config: { limits: { ...defaultConfig.limits, loginPerAddress: env.LOGIN_ATTEMPTS_PER_ADDRESS } },
  });
  let scrapes: ScrapeServer | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Readiness answers 503 from now; in-flight requests and jobs get SHUTDOWN_LIMIT_MS in all, then
    // the process ends anyway (a job cut short is taken again once its try expires).
    app.deps.lifecycle.draining = true;
    setTimeout(() => {
      app.log.error({ signal }, `shutdown took longer than ${SHUTDOWN_LIMIT_MS} ms; exiting`);
      unlock();
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    try {
      // A connection still serving a request when the signal came goes idle afterwards; close it then,
      // or server.close() waits for the client's keep-alive to lapse (72 s) before the process can exit
      // (test/faults.test.ts, "SIGTERM under load").
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
      await app.close().finally(() => clearInterval(sweep));
      await scrapes?.close();
      await database.close();
      // Exports the spans still buffered.
      await tracing?.shutdown();
    } finally {
      unlock();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: env.PORT, host: env.HOST });
  if (env.METRICS_PORT !== undefined) {
    scrapes = await listenForScrapes(metrics.registry, { port: env.METRICS_PORT, host: env.HOST });
  }
  const url = env.publicOrigin;
  const lines = [
    '',
    `  Interview Credits Portal is running at ${url}`,
    `  Database: ${database.kind === 'pglite' ? `embedded PGlite in ${dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    `  Super administrator: ${seeded.adminEmail}`,
  ];
  if (scrapes) lines.push(`  Metrics (Prometheus): ${scrapes.url}`);
  if (env.paymentProvider === 'sandbox') {
    lines.push('  Payments: built-in sandbox (Test mode: no real money is charged)');
  }
  if (seeded.generatedPassword) {
    lines.push(`  Password (shown once, change it after signing in): ${seeded.generatedPassword}`);
  } else if (!seeded.created) {
    lines.push('  Password: the one set at first start (or ADMIN_PASSWORD)');
  } else {
    lines.push('  Password: the value of ADMIN_PASSWORD');
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof DataDirLockedError || error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
