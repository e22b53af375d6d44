/**
 * Organizations over 13 simulated months (issue 32): card mandates whose debits the bank declines at
 * random and that recover on a retry, approvals above ₹15,000 paid through checkout, manual customers
 * whose payments the operator records (or not), skipped debits and credits spent all along. The clock
 * moves in 6-hour steps; every step is one scheduled renewal run and the charge jobs it queues.
 */
import { createHash, randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER, SANDBOX_TEST_CARD } from '@portal/shared';
import { createTenant } from '../../../test/fixtures.js';
import {
  createTestApp,
  LONG_MODE,
  roleIdByName,
  signIn,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { systemActor } from '../../core/actor.js';
import { ManualClock } from '../../core/clock.js';
import type { MandateDebits } from '../../core/payments/index.js';
import { billingPlans, creditLedger, invoices, payments, renewals } from '../../db/schema/index.js';
import { runRenewals } from './renewals.service.js';
import { onboardingBody } from './test-helpers.js';

const ORGS = LONG_MODE ? 100 : 20;
const MONTHS = 13;
const STEP_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;

let ctx: TestContext;
let root: Session;
beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
});
afterAll(() => ctx.close());

/** A seeded generator, so a failing run can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The bank declines a quarter of debits, decided by the receipt as a real provider would be. */
function declining(debits: MandateDebits): MandateDebits['chargeMandate'] {
  return async (input) => {
    const byte = createHash('sha256').update(input.receipt).digest()[0]!;
    if (byte % 4 === 0) return { status: 'failed', reason: 'The bank declined the debit (simulated).' };
    return debits.chargeMandate(input);
  };
}

interface Org {
  orgId: string;
  admin: Session;
  apiKey: string;
  kind: 'card' | 'large' | 'manual';
}

it(`${ORGS} organizations over ${MONTHS} months: each period charged at most once, noticed a day ahead, invoiced once, balances true`, async () => {
  const seed = Number(process.env.SIMULATION_SEED ?? 20_261_127);
  const rand = random(seed);
  const clock = new ManualClock(new Date());
  ctx.app.deps.clock = clock;
  const sandbox = ctx.app.deps.payments as unknown as MandateDebits;
  sandbox.chargeMandate = declining({ chargeMandate: sandbox.chargeMandate.bind(sandbox) });
  const startedAt = clock.now();
  const actor = systemActor('simulation');

  const orgs: Org[] = [];
  const adminRole = await roleIdByName(ctx);
  for (let i = 0; i < ORGS; i++) {
    const kind = i % 10 === 0 ? 'large' : i % 10 < 7 ? 'card' : 'manual';
    const body = { ...onboardingBody({ credits: kind === 'large' ? 200 : 100 }), autoRenew: true };
    const res = await root.post('/api/auth/onboarding', body, {
      headers: { [IDEMPOTENCY_HEADER]: randomUUID() },
    });
    expect(res.statusCode).toBe(201);
    const orgId = res.json().data.user.organizationId as string;
    const admin = (await createTenant(ctx, `sim-${i}`, { organizationId: orgId, roleId: adminRole })).session;
    if (kind !== 'manual') {
      const mandate = await admin.post('/api/admin/payment/sandbox/mandate', {
        cardNumber: SANDBOX_TEST_CARD,
      });
      expect(mandate.statusCode).toBe(200);
    }
    const apiKey = (await admin.post('/api/auth/api-keys', { name: 'Interview bot' })).json().data
      .key as string;
    orgs.push({ orgId, admin, apiKey, kind });
    // Onboarding spreads over the first days, so renewals do not all fall on one instant.
    clock.advance(Math.floor(rand() * 3_600_000));
  }
  const endAt = new Date(startedAt.getTime());
  endAt.setUTCMonth(endAt.getUTCMonth() + MONTHS);

  const balances = async () => {
    const rows = await ctx.database.db
      .select({
        organizationId: creditLedger.organizationId,
        sum: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int`,
      })
      .from(creditLedger)
      .groupBy(creditLedger.organizationId);
    return new Map(rows.map((r) => [r.organizationId, Number(r.sum)]));
  };
  const balance = async (org: Org) => {
    const res = await org.admin.get('/api/auth/credits');
    return res.json().data.balance as number;
  };
  const handled = new Set<string>();
  const everSuspended = new Set<string>();
  let restored = 0;
  let skippedByCustomer = 0;
  let negative = 0;
  for (let step = 0; clock.now() < endAt; step++) {
    clock.advance(STEP_MS);
    await runRenewals(ctx.app.deps, actor);
    await ctx.app.deps.jobs.settled();

    // A suspended organization pays what it owes now and then (the operator records it).
    const suspended = await ctx.database.db
      .select({ organizationId: billingPlans.organizationId })
      .from(billingPlans)
      .where(eq(billingPlans.status, 'suspended'));
    for (const { organizationId } of suspended) {
      everSuspended.add(organizationId);
      if (rand() >= 0.05) continue;
      const [owed] = await ctx.database.db
        .select()
        .from(renewals)
        .where(
          sql`${renewals.organizationId} = ${organizationId} and ${renewals.status} in ('lapsed', 'failed', 'awaiting_payment', 'awaiting_authentication')`,
        )
        .orderBy(desc(renewals.period))
        .limit(1);
      if (!owed) continue;
      const paid = await root.post(`/api/auth/renewals/${owed.id}/payments`, {
        transactionId: `UTR-${randomUUID().slice(0, 12)}`,
        paymentMethod: 'bank_transfer',
        paymentDate: clock.now().toISOString(),
      });
      expect(paid.statusCode).toBe(201);
      restored++;
    }

    // What customers and the operator do about renewals waiting for them (each renewal decided once).
    const waiting = await ctx.database.db
      .select()
      .from(renewals)
      .where(
        sql`${renewals.status} in ('notified', 'awaiting_authentication', 'awaiting_payment', 'failed')`,
      );
    for (const renewal of waiting) {
      const key = `${renewal.id}:${renewal.status}:${renewal.nextAttemptAt === null}`;
      if (handled.has(key)) continue;
      handled.add(key);
      const org = orgs.find((o) => o.orgId === renewal.organizationId)!;
      const roll = rand();
      if (renewal.status === 'notified' && roll < 0.05) {
        expect((await org.admin.post(`/api/auth/renewals/${renewal.id}/skip`)).statusCode).toBe(200);
        skippedByCustomer++;
      } else if (renewal.status === 'awaiting_authentication' && roll < 0.8) {
        const order = (await org.admin.post(`/api/auth/renewals/${renewal.id}/order`)).json().data.order;
        const checkout = (
          await org.admin.post('/api/admin/payment/sandbox/pay', { razorpay_order_id: order.providerOrderId })
        ).json().data;
        expect((await org.admin.post('/api/admin/payment/verify', checkout)).statusCode).toBe(200);
      } else if (
        (renewal.status === 'awaiting_payment' && roll < 0.8) ||
        (renewal.status === 'failed' && renewal.nextAttemptAt === null && roll < 0.5)
      ) {
        const recorded = await root.post(`/api/auth/renewals/${renewal.id}/payments`, {
          transactionId: `UTR-${randomUUID().slice(0, 12)}`,
          paymentMethod: 'bank_transfer',
          paymentDate: clock.now().toISOString(),
        });
        expect(recorded.statusCode).toBe(201);
      }
    }

    // The interview bot spends credits every week (the balances read in one query).
    if (step % 28 === 0) {
      const ledgerBalances = await balances();
      for (const org of orgs) {
        const available = ledgerBalances.get(org.orgId) ?? 0;
        if (available < 0) negative++;
        const credits = Math.floor(rand() * Math.min(available, 60));
        if (credits === 0) continue;
        const used = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/credits/use',
          payload: { credits, reference: `sim-${step}-${org.orgId}` },
          headers: { authorization: `Bearer ${org.apiKey}` },
        });
        expect(used.statusCode).toBe(200);
      }
    }
  }

  const allRenewals = await ctx.database.db.select().from(renewals);
  const allPayments = await ctx.database.db.select().from(payments);
  const allInvoices = await ctx.database.db.select().from(invoices);
  const byStatus = (status: string) => allRenewals.filter((r) => r.status === status).length;

  // Each period once: one renewal per organization and period, and at most one payment for it.
  const periods = new Set(allRenewals.map((r) => `${r.organizationId}:${r.period}`));
  expect(periods.size).toBe(allRenewals.length);
  const paymentsPerRenewal = new Map<string, number>();
  for (const p of allPayments) {
    const renewal = allRenewals.find((r) => r.subscriptionId === p.subscriptionId);
    if (renewal) paymentsPerRenewal.set(renewal.id, (paymentsPerRenewal.get(renewal.id) ?? 0) + 1);
  }
  const duplicated = [...paymentsPerRenewal.values()].filter((n) => n > 1).length;
  expect(duplicated).toBe(0);
  const settled = allRenewals.filter((r) => r.status === 'charged' || r.status === 'paid');
  expect(paymentsPerRenewal.size).toBe(settled.length);
  // Every payment of the run paid a renewal (nothing was bought otherwise).
  expect(allPayments.length).toBe(settled.length);

  // None skipped: an organization never suspended has a renewal for every period that started (a
  // suspended one is not renewed while suspended, by design).
  for (const org of orgs.filter((o) => !everSuspended.has(o.orgId))) {
    const own = allRenewals.filter((r) => r.organizationId === org.orgId).map((r) => r.period);
    expect(own.sort((a, b) => a - b)).toEqual(Array.from({ length: own.length }, (_, i) => i + 1));
    expect(own.length).toBeGreaterThanOrEqual(MONTHS - 1);
  }

  // A pre-debit notice at least 24 h before every debit; no mandate debit above ₹15,000.
  for (const r of allRenewals.filter((x) => x.status === 'charged')) {
    const payment = allPayments.find((p) => p.id === r.paymentId)!;
    expect(payment.paymentDate!.getTime() - r.noticeSentAt!.getTime()).toBeGreaterThanOrEqual(DAY_MS);
    expect(r.amountPaise).toBeLessThanOrEqual(1_500_000);
  }

  // Every payment exactly one invoice; each financial year's numbers consecutive from 1.
  expect(allInvoices.length).toBe(allPayments.length);
  expect(new Set(allInvoices.map((i) => i.paymentId)).size).toBe(allPayments.length);
  const years = new Map<string, number[]>();
  for (const invoice of allInvoices) {
    years.set(invoice.financialYear, [...(years.get(invoice.financialYear) ?? []), invoice.sequence]);
  }
  expect(years.size).toBeGreaterThanOrEqual(2);
  for (const sequences of years.values()) {
    expect(sequences.sort((a, b) => a - b)).toEqual(
      Array.from({ length: sequences.length }, (_, i) => i + 1),
    );
  }

  // Each balance is its ledger's sum, never negative.
  expect(negative).toBe(0);
  for (const org of orgs) {
    const [row] = await ctx.database.db
      .select({ sum: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int` })
      .from(creditLedger)
      .where(eq(creditLedger.organizationId, org.orgId));
    const shown = await balance(org);
    expect(shown).toBe(Number(row!.sum));
    expect(shown).toBeGreaterThanOrEqual(0);
  }

  const charged = byStatus('charged');
  console.info(
    `renewal simulation (seed ${seed}, ${ORGS} organizations, ${MONTHS} months): charged ${charged}, paid ${byStatus('paid')}, ` +
      `skipped ${byStatus('skipped')} (${skippedByCustomer} by the customer), failed ${byStatus('failed')}, ` +
      `lapsed ${byStatus('lapsed')}, duplicated ${duplicated}, invoices ${allInvoices.length} in ${years.size} financial years; ` +
      `${everSuspended.size} organizations suspended at some point, ${restored} payments of a suspended one`,
  );
  expect(charged).toBeGreaterThan(0);
  expect(byStatus('paid')).toBeGreaterThan(0);
}, 1_200_000);
