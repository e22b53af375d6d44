import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../db/client.js';
import type { Env } from '../env.js';
import type { PasswordHasher } from '../lib/passwords.js';
import type { Clock } from './clock.js';
import type { AppConfig } from './config.js';
import type { JobQueue } from './jobs.js';
import type { Mailer } from './mail.js';
import type { Metrics } from './metrics/index.js';
import type { PaymentProvider } from './payments/index.js';
import type { Secrets } from './secrets.js';
import type { WorkerPool } from './worker-pool.js';

/**
 * What every service is handed, first of its three parameters: `fn(deps, actor, input)`
 * (docs/decisions/024). app.ts builds it once; a test builds its own the same way.
 *
 * To join a caller's transaction, a service is called with `{ ...deps, db: tx }`; a service that
 * needs atomicity opens `deps.db.transaction(…)` itself (inside a caller's, that is a savepoint).
 */
export interface Deps {
  db: Db;
  dbKind: Database['kind'];
  env: Env;
  config: AppConfig;
  log: FastifyBaseLogger;
  hasher: PasswordHasher;
  /** The mail outbox: `enqueue` inside the change's transaction; a job delivers it once committed. */
  mailer: Mailer;
  /** The card payment provider: Razorpay, or the built-in sandbox (core/payments). */
  payments: PaymentProvider;
  /** CPU-heavy work (PDFs) on worker threads. */
  workers: WorkerPool;
  secrets: Secrets;
  /** Durable background work: `send` a job inside the change's transaction (core/jobs.ts). */
  jobs: JobQueue;
  /** The billing cycle's time: the system clock, or a test's (core/clock.ts). */
  clock: Clock;
  /** Set once SIGTERM came: readiness answers 503 while in-flight work finishes (server.ts). */
  lifecycle: { draining: boolean };
  /**
   * Prometheus metrics (core/metrics): services count what they did once it committed, e.g.
   * `deps.metrics.business.signIn('succeeded')`.
   */
  metrics: Metrics;
}

/** The same deps on another connection or transaction. */
export function withDb(deps: Deps, db: Db): Deps {
  return { ...deps, db };
}
