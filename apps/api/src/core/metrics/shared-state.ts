import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/client.js';
import { mailDelivery } from '../mail.js';
import { readQueueStates, type QueueState } from './shared-state.repo.js';
import { within } from '../../lib/within.js';

/** A scrape answers without these gauges rather than wait on a database that does not answer. */
const TIMEOUT_MS = 2_000;

/**
 * Gauges of what every process shares, read from the database when Prometheus scrapes: the job
 * queues and the mail outbox's backlog (each outbox mail waits as one `mail.deliver` job, so the
 * queue's table answers without scanning the outbox, whose sent mails are kept for good). Any
 * process may report them; the alert rules take the largest.
 */
export function observeSharedState(registry: Registry, source: { db: Db; log: FastifyBaseLogger }) {
  let reading: Promise<QueueState[] | null> | null = null;
  const failures = new Counter({
    name: 'portal_metrics_read_failures_total',
    help: 'Scrapes whose reading of the job queues failed or timed out',
    registers: [registry],
  });

  /**
   * The queue states of this scrape, read once however many gauges ask (a scrape collects them all at
   * once, and a read in flight serves them all); null when the read failed.
   */
  function states(): Promise<QueueState[] | null> {
    if (reading) return reading;
    const read = within(TIMEOUT_MS, readQueueStates(source.db))
      .catch((error: unknown) => {
        failures.inc();
        source.log.warn({ err: error }, 'metrics: could not read the job queues');
        return null;
      })
      .finally(() => {
        reading = null;
      });
    reading = read;
    return read;
  }

  new Gauge({
    name: 'portal_job_queue_jobs',
    help: 'Jobs per queue and state (created, retry, active; failed within the last hour)',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      const read = await states();
      this.reset();
      for (const row of read ?? []) this.set({ queue: row.queue, state: row.state }, row.jobs);
    },
  });

  new Gauge({
    name: 'portal_job_queue_oldest_ready_seconds',
    help: 'Age of the oldest job that may run now and waits for a worker, per queue (0: none waits)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const read = await states();
      this.reset();
      for (const [queue, seconds] of oldestReady(read ?? [])) this.set({ queue }, seconds);
    },
  });

  new Gauge({
    name: 'portal_mail_outbox_backlog',
    help: 'Outbox mails waiting for delivery (queued, being sent, or waiting to be tried again)',
    registers: [registry],
    async collect() {
      const read = await states();
      this.reset();
      if (!read) return;
      const waiting = read.filter((row) => row.queue === mailDelivery.name && row.state !== 'failed');
      this.set(waiting.reduce((sum, row) => sum + row.jobs, 0));
    },
  });
}

/** Per queue, the oldest age among its jobs waiting to run (created, or retry past its delay); 0 if none. */
function oldestReady(states: QueueState[]): Map<string, number> {
  const oldest = new Map<string, number>();
  for (const row of states) {
    const waiting = row.state === 'created' || row.state === 'retry';
    const age = waiting ? (row.oldestReadySeconds ?? 0) : 0;
    oldest.set(row.queue, Math.max(oldest.get(row.queue) ?? 0, age));
  }
  return oldest;
}
