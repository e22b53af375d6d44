/**
 * Renewal debits across processes and crashes (issue 32, docs/decisions/027): two API processes on
 * one PostgreSQL taking the same debits at once, and a portal killed with -9 in the middle of a run.
 * Each test prints how many periods were charged, skipped and charged twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { systemActor } from '../src/core/actor.js';
import { ManualClock } from '../src/core/clock.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { billingPlans, organizations } from '../src/db/schema/index.js';
import { loadEnv } from '../src/env.js';
import { renewalChargeJob } from '../src/modules/billing/index.js';
import { addMonths } from '../src/modules/billing/rules.js';
import { runRenewals } from '../src/modules/billing/renewals.service.js';
import { saveSellerTaxProfile } from '../src/modules/invoices/invoices.repo.js';
import { killPortals, startPortal, type PortalProcess } from './portal-process.js';
import { LONG_MODE, TEST_HASH_COST, TEST_JOBS } from './harness.js';
import {
  createPostgresDatabase,
  prepareTestDatabase,
  TEST_SELLER_PROFILE,
  TEST_SESSION_SECRET,
  usePostgres,
} from './test-database.js';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const HOUR = 3_600_000;

afterEach(() => killPortals());

/** An app in this process that queues work but takes none, on a clock the test sets. */
async function queueOnlyApp(database: Database): Promise<FastifyInstance> {
  const app = await buildApp({
    env: loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SESSION_SECRET: TEST_SESSION_SECRET }),
    database,
    hashCost: TEST_HASH_COST,
    logger: false,
    config: { jobs: { ...TEST_JOBS, work: false } },
  });
  await app.ready();
  return app;
}

/**
 * `count` organizations on card mandates whose period 1 began an hour ago, announced 30 hours ago (so
 * each debit is due now), with their charge jobs queued: what a renewal run leaves for the workers.
 */
async function dueDebits(app: FastifyInstance, count: number): Promise<void> {
  const now = Date.now();
  const anchor = addMonths(new Date(now - HOUR), -1);
  const orgs = await app.deps.db
    .insert(organizations)
    .values(Array.from({ length: count }, (_, i) => ({ name: `Renewing ${i}` })))
    .returning({ id: organizations.id });
  await app.deps.db.insert(billingPlans).values(
    orgs.map((o) => ({
      organizationId: o.id,
      creditsPerPeriod: 10,
      pricePerCreditPaise: 10_000,
      taxRateBp: 1_800,
      amountPaise: 118_000,
      autoRenew: true,
      collection: 'mandate' as const,
      mandateStatus: 'authorized' as const,
      mandateToken: `token_${o.id.slice(0, 8)}`,
      mandateMaxPaise: 118_000,
      anchorAt: anchor,
      nextPeriodStart: addMonths(anchor, 1),
    })),
  );
  const clock = new ManualClock(new Date(now - 30 * HOUR));
  app.deps.clock = clock;
  const actor = systemActor('test');
  const announced = await runRenewals(app.deps, actor);
  expect(announced).toMatchObject({ scheduled: count, announced: count, charges: 0 });
  clock.set(new Date());
  const queued = await runRenewals(app.deps, actor);
  expect(queued.charges).toBe(count);
}

/** Renewals by status, and the debits per renewal at the provider and in the portal. */
async function tally(database: Database) {
  const statuses = rowsOf<{ status: string; n: number }>(
    await database.db.execute(sql`select status, count(*)::int as n from renewals group by status`),
  );
  const byStatus = Object.fromEntries(statuses.map((s) => [s.status, s.n]));
  // The sandbox's own record: one captured debit per renewal (rn_<renewal>_<attempt>), whatever retried it.
  const atProvider = rowsOf<{ n: number }>(
    await database.db.execute(sql`
      select count(*)::int as n from sandbox_mandate_charges
      where provider_payment_id is not null group by split_part(receipt, '_', 2)`),
  );
  const payments = rowsOf<{ n: number }>(
    await database.db.execute(sql`
      select count(p.id)::int as n from renewals r left join payments p on p.subscription_id = r.subscription_id
      group by r.id`),
  );
  const grants = rowsOf<{ n: number }>(
    await database.db.execute(sql`
      select count(*)::int as n from credit_ledger where reference like 'renewal:%' group by reference`),
  );
  return {
    charged: byStatus.charged ?? 0,
    /** Debits a process had taken and not recorded: in flight at a kill. */
    charging: byStatus.charging ?? 0,
    open: (byStatus.notified ?? 0) + (byStatus.charging ?? 0) + (byStatus.failed ?? 0),
    duplicatedAtProvider: atProvider.filter((r) => r.n > 1).length,
    duplicatedPayments: payments.filter((r) => r.n > 1).length,
    duplicatedGrants: grants.filter((r) => r.n > 1).length,
  };
}

async function waitFor(check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(!usePostgres)('two API processes on one PostgreSQL', () => {
  it('take 300 due debits, each queued twice, and charge each period once', async () => {
    const { url, drop } = await createPostgresDatabase();
    const database = await openDatabase({ databaseUrl: url });
    try {
      await prepareTestDatabase(database);
      const app = await queueOnlyApp(database);
      await dueDebits(app, 300);
      // A second job for every debit, as a clock skew between two schedulers could queue.
      const ids = rowsOf<{ id: string }>(await database.db.execute(sql`select id from renewals`));
      for (const { id } of ids) await app.deps.jobs.send(app.deps.db, renewalChargeJob, { renewalId: id });
      await app.close();

      const settings = { DATABASE_URL: url, SESSION_SECRET: TEST_SESSION_SECRET };
      const portals: PortalProcess[] = await Promise.all([startPortal(settings), startPortal(settings)]);
      for (const portal of portals) expect(portal.output()).toContain('is running at');
      await waitFor(async () => (await tally(database)).charged === 300, 180_000);
      const result = await tally(database);
      console.log(
        `two processes: charged ${result.charged} of 300 periods, skipped ${300 - result.charged}, duplicated ${result.duplicatedPayments}`,
      );
      expect(result).toEqual({
        charged: 300,
        charging: 0,
        open: 0,
        duplicatedAtProvider: 0,
        duplicatedPayments: 0,
        duplicatedGrants: 0,
      });
    } finally {
      await database.close();
      await drop();
    }
  }, 300_000);
});

// On the embedded database in a data folder, the default; the PostgreSQL pass of the suites skips it.
describe.skipIf(!LONG_MODE || usePostgres)('a portal killed in the middle of a renewal run', () => {
  it('charges every due period after its restart, none twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-renewal-crash-'));
    try {
      const settings = { DATA_DIR: dataDir, SESSION_SECRET: TEST_SESSION_SECRET };
      // The first start migrates and makes the queues; the debits are set up while it is down.
      const first = await startPortal(settings);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      const database = await openDatabase({ dataDir: join(dataDir, 'pg') });
      await saveSellerTaxProfile(database.db, TEST_SELLER_PROFILE, null);
      const app = await queueOnlyApp(database);
      await dueDebits(app, 300);
      await app.close();
      await database.close();

      // The data folder has one writer: it is read between the portal's runs, never beside one.
      const peek = async () => {
        const db = await openDatabase({ dataDir: join(dataDir, 'pg') });
        try {
          return await tally(db);
        } finally {
          await db.close();
        }
      };
      const portal = await startPortal(settings);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      portal.child.kill('SIGKILL');
      await portal.exited;
      const atKill = await peek();

      // A debit cut by the kill stays `charging` until its job expires (60 s after it began) and
      // pg-boss's maintenance, every 60 s from the start, hands it back; it is then asked again with
      // the same receipt. So each restart runs for 90 s, until every period is charged.
      const deadline = Date.now() + 400_000;
      for (;;) {
        const again = await startPortal(settings);
        expect(again.output()).toContain('is running at');
        await new Promise((resolve) => setTimeout(resolve, 90_000));
        again.child.kill('SIGTERM');
        expect(await again.exited).toBe(0);
        if ((await peek()).charged === 300 || Date.now() > deadline) break;
      }
      const result = await peek();
      console.log(
        `kill -9 after ${atKill.charged} of 300 periods were charged (${atKill.charging} being charged, ${atKill.open} not yet): after the restart charged ${result.charged}, skipped ${300 - result.charged}, duplicated ${result.duplicatedPayments}`,
      );
      expect(atKill.charged).toBeLessThan(300);
      expect(result).toEqual({
        charged: 300,
        charging: 0,
        open: 0,
        duplicatedAtProvider: 0,
        duplicatedPayments: 0,
        duplicatedGrants: 0,
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 600_000);
});
