import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Db } from '../db/client.js';
import { systemActor, type SystemActor } from './actor.js';
import type { AppConfig } from './config.js';
import type { Deps } from './deps.js';
import { executorOn } from './jobs.repo.js';
import type { Metrics } from './metrics/index.js';
import { runOncePerSlot } from './scheduled-runs.js';
import { inJobSpan, withTraceContext } from './tracing/index.js';

/** One run of a job, as its handler sees it. */
export interface JobRun<T> {
  id: string;
  data: T;
  /** Tries before this one (0 on the first). */
  retryCount: number;
  retryLimit: number;
  createdOn: Date;
}

/** How a queue retries, expires and keeps its jobs. */
export interface QueueOptions {
  /** Tries after the first; each waits `retryDelaySeconds`, doubled each time with jitter when `retryBackoff`. */
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** A try not finished by then is taken as lost (its process died) and tried again. */
  expireInSeconds: number;
}

/**
 * A kind of background work: its queue's options and its handler, `run(deps, actor, job)`. A handler
 * that throws is tried again as the queue says; it must be safe to run twice, since a process killed
 * after the work but before the job was marked done runs it again (docs/decisions/026).
 */
export interface JobDefinition<T = unknown> extends JobName<T> {
  name: string;
  queue(config: AppConfig): QueueOptions;
  /** Jobs one process fetches and runs at once. */
  batchSize?: number;
  /** A cron expression (India time): the job is queued once per slot across every process. */
  schedule?: string;
  run(deps: Deps, actor: SystemActor, job: JobRun<T>): Promise<unknown>;
}

/** Defines a job with its data's type, so `send` checks what it is given. */
export function defineJob<T>(definition: JobDefinition<T>): JobDefinition<T> {
  return definition;
}

/** A queue by name, with the type of its jobs' data: what `send` needs. */
export interface JobName<T> {
  name: string;
  /** Never set: carries `T`. */
  readonly data?: T;
}

export interface JobQueue {
  /**
   * Queues `job` in `db`: the caller's transaction, so a rolled-back change queues nothing, or the
   * pool. `singletonKey` makes a second job with the same key (not yet finished) a no-op.
   */
  send<T>(db: Db, job: JobName<T>, data: T, options?: { singletonKey?: string }): Promise<void>;
  /**
   * `send` for several jobs of one queue, in one statement (pg-boss's `insert`), with the queue's
   * options as `send` has them. No singleton key: each job is queued.
   */
  sendMany<T>(db: Db, job: JobName<T>, data: readonly T[]): Promise<void>;
  /** Creates the queues, then takes jobs (and schedules) as `config.jobs` allows. */
  start(deps: Deps, definitions: readonly JobDefinition[]): Promise<void>;
  /**
   * Stops taking jobs, lets running ones finish for `config.jobs.shutdownMs`, and leaves the rest
   * queued; `cutShort` then ends what those still running wait on (the mail transport).
   */
  stop(cutShort?: () => Promise<void> | void): Promise<void>;
  /**
   * Resolves once no job of these queues is waiting or running (tests, the bench). It asks the
   * database only if this process queued a job since it last found them all done.
   */
  settled(timeoutMs?: number): Promise<void>;
}

export const JOB_SCHEMA = 'pgboss';
const TIME_ZONE = 'Asia/Kolkata';

function bossOptions(config: AppConfig): PgBoss.ConstructorOptions {
  const { jobs } = config;
  return {
    schema: JOB_SCHEMA,
    migrate: true,
    supervise: jobs.supervise,
    schedule: jobs.schedule,
    pollingIntervalSeconds: jobs.pollingIntervalSeconds,
    maintenanceIntervalSeconds: jobs.maintenanceIntervalSeconds,
    // Finished jobs leave the live table after an hour and are deleted after `retentionDays`.
    archiveCompletedAfterSeconds: 3_600,
    archiveFailedAfterSeconds: 3_600,
    deleteAfterDays: jobs.retentionDays,
  };
}

/** Creates pg-boss's tables in `db` if they are missing (the test template, an operator's upgrade). */
export async function installJobSchema(db: Db): Promise<void> {
  const boss = new PgBoss({
    db: executorOn(db),
    schema: JOB_SCHEMA,
    migrate: true,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => {});
  await boss.start();
  await boss.stop({ graceful: false, close: false });
}

/** A deadlock, or a row another process inserted a moment before. */
const RACE_CODES = new Set(['40P01', '23505']);

/**
 * Runs `work` again when it lost a race with another process. Processes starting at once each create
 * the same queues (a row and a partition, one statement): one may deadlock. Creating a queue that
 * exists changes nothing, so a try after a short random pause succeeds.
 */
async function retryOnRace(work: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code =
        (error as { code?: string; cause?: { code?: string } }).cause?.code ??
        (error as { code?: string }).code;
      if (!code || !RACE_CODES.has(code) || attempt === 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * (50 + Math.random() * 100)));
    }
  }
}

/** The portal's job queue: pg-boss on the portal's own database, embedded or PostgreSQL. */
export function createJobQueue(options: {
  db: Db;
  config: AppConfig;
  log: FastifyBaseLogger;
  metrics: Pick<Metrics, 'jobsDefined' | 'jobRan'>;
}): JobQueue {
  const { db, config, log, metrics } = options;
  // Once stopped, statements answer nothing, as pg-boss's own connection does once closed: a try that
  // outlived the shutdown was handed back to the queue already, and its late completion (which
  // pg-boss does not await) must not reach a pool that may be closed by then.
  let stopped = false;
  const onPool = executorOn(db);
  const boss = new PgBoss({
    ...bossOptions(config),
    db: {
      executeSql: (text, values) =>
        stopped ? (Promise.resolve(undefined) as never) : onPool.executeSql(text, values),
    },
  });
  // pg-boss reports a failed poll or maintenance run as an event; unheard, Node would throw it.
  boss.on('error', (error) => log.warn({ err: error }, 'job queue error'));
  const queues = new Set<string>();
  const workerIds: string[] = [];
  const running = new Set<Promise<unknown>>();
  let started = false;
  // Jobs this process has queued, and how many of them a `settled` had seen done: when nothing was
  // queued since, it answers at once instead of asking the database (the tests call it after every request).
  let sends = 0;
  let settledSends = -1;

  async function work(deps: Deps, definition: JobDefinition) {
    const actor = systemActor(`job:${definition.name}`);
    const batchSize = definition.batchSize ?? 1;
    // pg-boss may hand the first batch over before `work` resolves with the worker's id.
    const worker = { id: '' };
    worker.id = await boss.work<unknown>(definition.name, { batchSize, includeMetadata: true }, (jobs) =>
      track(handle(jobs)),
    );
    workerIds.push(worker.id);

    async function handle(jobs: PgBoss.JobWithMetadata<unknown>[]) {
      // A full batch means more are likely waiting: fetch again at once instead of after the polling
      // interval, which would otherwise cap a queue at one batch per interval.
      if (jobs.length === batchSize && worker.id) boss.notifyWorker(worker.id);
      // Each job of a batch succeeds or fails on its own: a failed one is handed back for retry here,
      // and pg-boss then completes only those still active.
      const outcomes = await Promise.allSettled(
        jobs.map((job) =>
          // A job queued during a traced request continues that request's trace.
          inJobSpan(definition.name, job.id, job.data, (data) => {
            const run: JobRun<unknown> = {
              id: job.id,
              data,
              retryCount: job.retryCount,
              retryLimit: job.retryLimit,
              // Timestamps come as text through drizzle's driver.
              createdOn: new Date(job.createdOn),
            };
            return definition.schedule
              ? runOncePerSlot(
                  deps,
                  { job: definition.name, cron: definition.schedule, timeZone: TIME_ZONE, run },
                  () => definition.run(deps, actor, run),
                )
              : definition.run(deps, actor, run);
          }),
        ),
      );
      const failed = outcomes.flatMap((outcome, i) =>
        outcome.status === 'rejected' ? [{ id: jobs[i]!.id, error: outcome.reason as unknown }] : [],
      );
      outcomes.forEach((outcome, i) => {
        const lastTry = jobs[i]!.retryCount >= jobs[i]!.retryLimit;
        const ended = outcome.status === 'fulfilled' ? 'succeeded' : lastTry ? 'gave_up' : 'failed';
        metrics.jobRan(definition.name, ended);
      });
      for (const { id: jobId, error } of failed) {
        log.warn(
          { err: error, job: definition.name, jobId },
          'job failed; it will be tried again if it has tries left',
        );
        await boss
          .fail(definition.name, jobId, { message: error instanceof Error ? error.message : String(error) })
          .catch((failure: unknown) => log.warn({ err: failure, jobId }, 'could not hand a failed job back'));
      }
      const [only] = outcomes;
      return jobs.length === 1 && only?.status === 'fulfilled' ? (only.value as object) : undefined;
    }
  }

  /** Keeps a running batch in `running` until it settles, so a shutdown can wait for the stragglers. */
  function track<T>(batch: Promise<T>): Promise<T> {
    running.add(batch);
    void batch.finally(() => running.delete(batch)).catch(() => undefined);
    return batch;
  }

  return {
    async send(target, job, data, sendOptions = {}) {
      sends++;
      await boss.send(job.name, withTraceContext(data as object), { ...sendOptions, db: executorOn(target) });
    },

    async sendMany(target, job, data) {
      if (data.length === 0) return;
      sends++;
      await boss.insert(
        data.map((item) => ({ name: job.name, data: withTraceContext(item as object) })),
        { db: executorOn(target) },
      );
    },

    async start(deps, definitions) {
      await boss.start();
      started = true;
      for (const definition of definitions) {
        const { retryLimit, retryDelaySeconds, retryBackoff, expireInSeconds } = definition.queue(config);
        const queue = {
          name: definition.name,
          retryLimit,
          retryDelay: retryDelaySeconds,
          retryBackoff,
          expireInSeconds,
        };
        await retryOnRace(async () => {
          if (await boss.getQueue(definition.name)) await boss.updateQueue(definition.name, queue);
          else await boss.createQueue(definition.name, queue);
        });
        queues.add(definition.name);
      }
      metrics.jobsDefined([...queues]);
      for (const definition of definitions) {
        if (definition.schedule && config.jobs.schedule) {
          await boss.schedule(definition.name, definition.schedule, {}, { tz: TIME_ZONE });
        }
        if (config.jobs.work) await work(deps, definition);
      }
    },

    async stop(cutShort) {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, close: false, wait: true, timeout: config.jobs.shutdownMs });
      stopped = true;
      // Tries still running were handed back to the queue; cut their work (the SMTP connections) and
      // give them a moment to record what they did while the pool is still open.
      if (running.size > 0) {
        await cutShort?.();
        await Promise.race([
          Promise.allSettled([...running]),
          new Promise((r) => setTimeout(r, 2_000).unref()),
        ]);
      }
    },

    async settled(timeoutMs = 30_000) {
      if (sends === settledSends && running.size === 0) return;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const seen = sends;
        let waiting = 0;
        for (const name of queues) waiting += await boss.getQueueSize(name, { before: 'completed' });
        if (waiting === 0 && running.size === 0) {
          settledSends = seen;
          return;
        }
        if (Date.now() > deadline) throw new Error(`${waiting} jobs still queued after ${timeoutMs} ms`);
        for (const id of workerIds) boss.notifyWorker(id);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
