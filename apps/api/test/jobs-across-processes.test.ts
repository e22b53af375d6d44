/**
 * Jobs across processes and crashes (docs/decisions/026): two API processes on one PostgreSQL run
 * each job once, a scheduled slot runs once, and a portal killed with mails in flight delivers every
 * one after its restart, with duplicates at most the mails it was sending at the instant it died.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { scheduledRuns } from '../src/db/schema/index.js';
import { loadEnv } from '../src/env.js';
import { housekeepingJob } from '../src/modules/platform/index.js';
import { killPortals, startPortal, type PortalProcess } from './portal-process.js';
import { startSmtpPeer, type SmtpPeer } from './smtp-peer.js';
import { LONG_MODE, TEST_HASH_COST, TEST_JOBS } from './harness.js';
import {
  createPostgresDatabase,
  prepareTestDatabase,
  TEST_SESSION_SECRET,
  usePostgres,
} from './test-database.js';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** An app in this process that queues work but takes none: the test's hand on the queue. */
async function queueOnlyApp(database: Database, smtpUrl: string): Promise<FastifyInstance> {
  const app = await buildApp({
    env: loadEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SESSION_SECRET: TEST_SESSION_SECRET,
      SMTP_URL: smtpUrl,
    }),
    database,
    hashCost: TEST_HASH_COST,
    logger: false,
    config: { jobs: { ...TEST_JOBS, work: false } },
  });
  await app.ready();
  return app;
}

/** `count` mails queued in transactions of 100, each to its own address. */
async function queueMails(app: FastifyInstance, count: number, tag: string) {
  for (let start = 0; start < count; start += 100) {
    await app.deps.db.transaction(async (tx) => {
      for (let i = start; i < Math.min(count, start + 100); i++) {
        await app.deps.mailer.enqueue(tx, {
          kind: 'invitation',
          to: `${tag}-${i}@crash.test`,
          subject: `Mail ${i}`,
          text: `Mail ${i} of ${count}`,
        });
      }
    });
  }
}

async function mailJobsIn(database: Database, state: string): Promise<number> {
  const result = await database.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = 'mail.deliver' and state = ${state}`,
  );
  return rowsOf<{ n: number }>(result)[0]!.n;
}

function uniqueAndDuplicates(peer: SmtpPeer, tag: string) {
  const counts = [...peer.countByMessageId().entries()].filter(([, n]) => n > 0);
  const ours = peer.messages.filter((m) => m.to.some((to) => to.startsWith(`${tag}-`)));
  const ids = new Set(ours.map((m) => m.messageId));
  return { unique: ids.size, duplicates: ours.length - ids.size, counts };
}

let peer: SmtpPeer;
beforeAll(async () => {
  peer = await startSmtpPeer();
});
afterEach(() => killPortals());
afterAll(() => peer.close());

describe.skipIf(!usePostgres)('two API processes on one PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase());
    database = await openDatabase({ databaseUrl: url });
    await prepareTestDatabase(database);
    app = await queueOnlyApp(database, peer.url);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await drop?.();
  });

  it('run 1,000 mail jobs once each, and a scheduled slot queued twenty times runs once', async () => {
    const settings = { DATABASE_URL: url, SMTP_URL: peer.url, SESSION_SECRET: TEST_SESSION_SECRET };
    const portals: PortalProcess[] = await Promise.all([startPortal(settings), startPortal(settings)]);
    for (const portal of portals) expect(portal.output()).toContain('is running at');

    await queueMails(app, 1_000, 'pair');
    await peer.waitForMessages(1_000, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const { unique, duplicates } = uniqueAndDuplicates(peer, 'pair');
    console.log(`two processes: ${unique} of 1,000 mails arrived, ${duplicates} twice`);
    expect(unique).toBe(1_000);
    expect(duplicates).toBe(0);
    expect(await mailJobsIn(database, 'completed')).toBe(1_000);

    // Each process queues the hourly housekeeping when its slot comes; here both are handed twenty
    // jobs of one slot at once, as a clock skew or a retry could.
    const housekeeping = housekeepingJob([]);
    await Promise.all(Array.from({ length: 20 }, () => app.deps.jobs.send(app.deps.db, housekeeping, {})));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const left = rowsOf<{ n: number }>(
        await database.db.execute(
          sql`select count(*)::int as n from pgboss.job where name = ${housekeeping.name} and state <> 'completed'`,
        ),
      )[0]!.n;
      if (left === 0) break;
      if (Date.now() > deadline) throw new Error(`${left} housekeeping jobs left`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const runs = await database.db
      .select()
      .from(scheduledRuns)
      .where(eq(scheduledRuns.job, housekeeping.name));
    expect(runs).toHaveLength(1);
    expect(runs[0]!.outcome).toBe('completed');
    const outputs = rowsOf<{ output: Record<string, unknown> }>(
      await database.db.execute(sql`select output from pgboss.job where name = ${housekeeping.name}`),
    );
    expect(outputs.filter((o) => 'skipped' in o.output)).toHaveLength(19);
    // Both processes put the hourly schedules in place; each slot is queued once (pg-boss's cron).
    const schedules = rowsOf<{ name: string; cron: string }>(
      await database.db.execute(sql`select name, cron from pgboss.schedule order by name`),
    );
    expect(schedules).toEqual([
      { name: 'billing.renewals', cron: '*/15 * * * *' },
      { name: 'notifications.subscription-notices', cron: '5 * * * *' },
      { name: 'platform.housekeeping', cron: '0 * * * *' },
    ]);
  }, 240_000);
});

// On the embedded database in a data folder, the default; the PostgreSQL pass of the suites skips it.
describe.skipIf(!LONG_MODE || usePostgres)('a portal killed with mails in flight', () => {
  it('delivers every mail after its restart, duplicates at most those it was sending', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-crash-'));
    try {
      const settings = { DATA_DIR: dataDir, SMTP_URL: peer.url, SESSION_SECRET: TEST_SESSION_SECRET };
      // The first start migrates and makes the queues; the mails are queued while it is down.
      const first = await startPortal(settings);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      const database = await openDatabase({ dataDir: join(dataDir, 'pg') });
      const app = await queueOnlyApp(database, peer.url);
      await queueMails(app, 500, 'crash');
      await app.close();
      await database.close();

      const portal = await startPortal(settings);
      await peer.waitForMessages(peer.messages.length + 100, 60_000);
      portal.child.kill('SIGKILL');
      await portal.exited;
      const atKill = uniqueAndDuplicates(peer, 'crash').unique;
      // What it was sending when it died: the tries it had taken and not finished.
      const killed = await openDatabase({ dataDir: join(dataDir, 'pg') });
      const inFlight = await mailJobsIn(killed, 'active');
      await killed.close();

      const restarted = await startPortal(settings);
      expect(restarted.output()).toContain('is running at');
      // Tries cut by the kill stay "active" until they expire (2 minutes), then are tried again.
      const deadline = Date.now() + 300_000;
      while (uniqueAndDuplicates(peer, 'crash').unique < 500 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      restarted.child.kill('SIGTERM');
      expect(await restarted.exited).toBe(0);

      const { unique, duplicates } = uniqueAndDuplicates(peer, 'crash');
      console.log(
        `kill -9 after ${atKill} of 500 mails arrived, ${inFlight} being sent: after the restart ${unique} of 500 arrived, ${duplicates} twice`,
      );
      expect(unique).toBe(500);
      expect(duplicates).toBeLessThanOrEqual(inFlight);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 420_000);
});
