import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { createBusinessMetrics, type BusinessMetrics } from './business.js';

const JOB_OUTCOMES = ['succeeded', 'failed', 'gave_up'] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

/**
 * The portal's metrics, in Prometheus's format (prom-client), one registry per app. Counters count
 * what this process did; Prometheus sums the processes. docs/decisions/031 lists them.
 */
export interface Metrics {
  registry: Registry;
  /** Seconds per answered request by route template (never its parameters), method and status. */
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Seconds per SQL statement, on either database; `failed` when the database refused it. */
  dbStatementDuration: Histogram<'outcome'>;
  /** The queues this process works: their series start at 0, so the first failure shows in increase(). */
  jobsDefined(queues: readonly string[]): void;
  /** A job's try ended: done, failed (tried again later), or failed with no try left. */
  jobRan(queue: string, outcome: JobOutcome): void;
  /** An outbox mail given up (5xx, or the last temporary failure). */
  mailGivenUp(): void;
  business: BusinessMetrics;
}

/** The request's answer time, from 1 ms to 10 s: the p99 goal (0.5 s) falls on a bucket's edge. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DB_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/**
 * `process`: also the Node process's own metrics (event-loop delay, CPU, memory, GC), which belong to
 * the process, not to an app: the server asks for them once; tests that build many apps do not.
 */
export function createMetrics(options: { process?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.process) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const httpDuration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer a request, by route template, method and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const dbStatementDuration = new Histogram({
    name: 'portal_db_statement_duration_seconds',
    help: 'Time of a SQL statement, from its sending to its answer',
    labelNames: ['outcome'] as const,
    buckets: DB_BUCKETS,
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'portal_job_runs_total',
    help: 'Tries of jobs this process ran, by queue and outcome (gave_up: a failure with no try left)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
  });
  const mailsGivenUp = new Counter({
    name: 'portal_mails_given_up_total',
    help: 'Outbox mails given up (the Undelivered mail screen lists them)',
    registers: [registry],
  });
  return {
    registry,
    httpDuration,
    dbStatementDuration,
    jobsDefined(queues) {
      for (const queue of queues) for (const outcome of JOB_OUTCOMES) jobRuns.inc({ queue, outcome }, 0);
    },
    jobRan: (queue, outcome) => jobRuns.inc({ queue, outcome }),
    mailGivenUp: () => mailsGivenUp.inc(),
    business: createBusinessMetrics(registry),
  };
}
