import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_HEADER,
  messages,
  PRE_DEBIT_NOTICE_LEAD_HOURS,
  SANDBOX_DECLINED_CARD,
  SANDBOX_FAILING_DEBITS_CARD,
  SANDBOX_TEST_CARD,
} from '@portal/shared';
import { createTenant } from '../../../test/fixtures.js';
import {
  createTestApp,
  roleIdByName,
  signIn,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { systemActor } from '../../core/actor.js';
import type { SandboxProvider } from '../../core/payments/index.js';
import { webhookSignature } from '../../core/payments/signatures.js';
import { ManualClock } from '../../core/clock.js';
import { loadEnv } from '../../env.js';
import {
  creditLedger,
  emailOutbox,
  invoices,
  notifications,
  sandboxMandateCharges,
} from '../../db/schema/index.js';
import { chargeRenewal } from './renewal-charges.service.js';
import { debitReceipt } from './rules.js';
import { runRenewals } from './renewals.service.js';
import {
  balanceOf,
  capturedPayments,
  monthAfter,
  onboardingBody,
  onboardWithAdmin,
  renewalsOf,
  type OnboardedOrg,
} from './test-helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let ctx: TestContext;
let root: Session;
let clock: ManualClock;
beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
});
afterAll(() => ctx.close());
beforeEach(() => {
  // Each test starts its organizations now; the clock then moves only forward.
  clock = new ManualClock(new Date());
  ctx.app.deps.clock = clock;
});

const actor = systemActor('test');

/** A run as the scheduler makes it, then the charge jobs it queued. */
async function run() {
  const result = await runRenewals(ctx.app.deps, actor);
  await ctx.app.deps.jobs.settled();
  return result;
}

type Org = OnboardedOrg;

/** Onboards an organization (its plan starts now, on the clock) with a signed-in admin, and its card. */
async function onboard(options: { credits?: number; autoRenew?: boolean; card?: string } = {}): Promise<Org> {
  const org = await onboardWithAdmin(ctx, root, options);
  if (options.card) {
    const mandate = await org.admin.post('/api/admin/payment/sandbox/mandate', { cardNumber: options.card });
    expect(mandate.statusCode).toBe(200);
  }
  return org;
}

describe('the plan', () => {
  it('onboarding sets it up with auto-renewal; the admin and the operator read it, another tenant cannot', async () => {
    const org = await onboard({ autoRenew: true });
    const own = await org.admin.get('/api/auth/billing-plan');
    expect(own.statusCode).toBe(200);
    expect(own.json().data.plan).toMatchObject({
      organizationId: org.orgId,
      creditsPerPeriod: 100,
      amountPaise: 1_180_000,
      autoRenew: true,
      collection: 'manual',
      mandateStatus: 'none',
      currentPeriodStart: org.anchor.toISOString(),
      currentPeriodEnd: monthAfter(org.anchor).toISOString(),
    });
    const operator = await root.get(`/api/auth/billing-plan?organizationId=${org.orgId}`);
    expect(operator.json().data.plan.organizationId).toBe(org.orgId);

    const other = await onboard();
    const foreign = await other.admin.get(`/api/auth/billing-plan?organizationId=${org.orgId}`);
    expect(foreign.statusCode).toBe(404);
    const change = await other.admin.put(`/api/auth/billing-plan?organizationId=${org.orgId}`, {
      autoRenew: false,
    });
    expect(change.statusCode).toBe(404);
    expect((await org.admin.get('/api/auth/billing-plan')).json().data.plan.autoRenew).toBe(true);
  });

  it('refuses a body with anything but autoRenew, and a declined card registers no mandate', async () => {
    const org = await onboard();
    const bad = await org.admin.put('/api/auth/billing-plan', { autoRenew: true, amountPaise: 1 });
    expect(bad.statusCode).toBe(400);
    const declined = await org.admin.post('/api/admin/payment/sandbox/mandate', {
      cardNumber: SANDBOX_DECLINED_CARD,
    });
    expect(declined.statusCode).toBe(402);
    expect((await org.admin.get('/api/auth/billing-plan')).json().data.plan.mandateStatus).toBe('none');
  });
});

describe('a renewal on a card mandate', () => {
  it('sends the pre-debit notice 48 h ahead, debits at the period start, invoices it and grants the credits', async () => {
    const org = await onboard({ card: SANDBOX_TEST_CARD });
    const start = monthAfter(org.anchor);
    const balance = await balanceOf(ctx, org.orgId);

    clock.set(new Date(start.getTime() - 7 * DAY - HOUR));
    await run();
    expect(await renewalsOf(ctx, org.orgId)).toHaveLength(0);
    clock.set(new Date(start.getTime() - 7 * DAY));
    await run();
    expect(await renewalsOf(ctx, org.orgId)).toMatchObject([
      { period: 1, status: 'scheduled', noticeSentAt: null },
    ]);
    clock.set(new Date(start.getTime() - PRE_DEBIT_NOTICE_LEAD_HOURS * HOUR - HOUR));
    await run();
    expect((await renewalsOf(ctx, org.orgId))[0]!.status).toBe('scheduled');

    clock.set(new Date(start.getTime() - PRE_DEBIT_NOTICE_LEAD_HOURS * HOUR));
    await run();
    const [notified] = await renewalsOf(ctx, org.orgId);
    expect(notified).toMatchObject({ period: 1, status: 'notified', amountPaise: 1_180_000 });
    expect(notified!.nextAttemptAt).toEqual(start);
    const [notice] = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, org.orgId), eq(emailOutbox.kind, 'renewal_notice')));
    expect(notice!.subject).toBe(messages.renewals.preDebitTitle);
    expect(notice!.textBody).toContain('Merchant: Interview Credits Portal');
    expect(notice!.textBody).toContain('₹11,800');
    expect(notice!.textBody).toContain(`Reference: ${notified!.id}`);
    expect(notice!.textBody).toContain('http://localhost:3000/dashboard/billing');

    clock.set(new Date(start.getTime() - 1));
    await run();
    expect((await renewalsOf(ctx, org.orgId))[0]!.status).toBe('notified');

    clock.set(start);
    await run();
    const [charged] = await renewalsOf(ctx, org.orgId);
    expect(charged).toMatchObject({ status: 'charged', attempts: 1 });
    const paid = await capturedPayments(ctx, org.orgId);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ amountPaise: 1_180_000, id: charged!.paymentId });
    const invoiced = await ctx.database.db.select().from(invoices).where(eq(invoices.paymentId, paid[0]!.id));
    expect(invoiced).toHaveLength(1);
    expect(await balanceOf(ctx, org.orgId)).toBe(balance + 100);
    const alerts = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.organizationId, org.orgId), eq(notifications.kind, 'renewal_charged')));
    expect(alerts.length).toBeGreaterThan(0);

    // Runs after the debit change nothing; the next period is announced a month later.
    await run();
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(1);
    expect((await org.admin.get('/api/auth/billing-plan')).json().data.plan).toMatchObject({
      currentPeriodStart: start.toISOString(),
      currentPeriodEnd: monthAfter(org.anchor, 2).toISOString(),
    });
  });

  it('waits 24 hours after a notice sent late, whatever the period start', async () => {
    const org = await onboard({ card: SANDBOX_TEST_CARD, autoRenew: false });
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 2 * HOUR));
    expect((await org.admin.put('/api/auth/billing-plan', { autoRenew: true })).statusCode).toBe(200);
    await run();
    const [late] = await renewalsOf(ctx, org.orgId);
    expect(late!.nextAttemptAt).toEqual(new Date(clock.now().getTime() + DAY));
    clock.set(new Date(start.getTime() + 12 * HOUR));
    await run();
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(0);
    clock.set(new Date(start.getTime() + 22 * HOUR));
    await run();
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(1);
  });

  it('a skipped debit is not charged, and the plan renews the month after', async () => {
    const org = await onboard({ card: SANDBOX_TEST_CARD });
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 47 * HOUR));
    await run();
    const [notified] = await renewalsOf(ctx, org.orgId);
    const skip = await org.admin.post(`/api/auth/renewals/${notified!.id}/skip`);
    expect(skip.statusCode).toBe(200);
    expect(skip.json().data.status).toBe('skipped');
    expect((await org.admin.post(`/api/auth/renewals/${notified!.id}/skip`)).statusCode).toBe(409);

    clock.set(new Date(start.getTime() + HOUR));
    await run();
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(0);
    const receipts = await ctx.database.db
      .select()
      .from(sandboxMandateCharges)
      .where(sql`${sandboxMandateCharges.receipt} like ${`${debitReceipt(notified!.id, 1).slice(0, -1)}%`}`);
    expect(receipts).toHaveLength(0);

    clock.set(new Date(monthAfter(org.anchor, 2).getTime() - 47 * HOUR));
    await run();
    clock.set(monthAfter(org.anchor, 2));
    await run();
    const rows = await renewalsOf(ctx, org.orgId);
    expect(rows.map((r) => [r.period, r.status])).toEqual([
      [1, 'skipped'],
      [2, 'charged'],
    ]);
  });

  it('a renewal above ₹15,000 is never debited silently: it waits for the customer to pay', async () => {
    const org = await onboard({ credits: 200, card: SANDBOX_TEST_CARD });
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 40 * HOUR));
    await run();
    const [waiting] = await renewalsOf(ctx, org.orgId);
    expect(waiting).toMatchObject({ status: 'awaiting_authentication', amountPaise: 2_360_000 });
    expect(waiting!.nextAttemptAt).toBeNull();
    clock.set(new Date(start.getTime() + 3 * DAY));
    await run();
    // A charge asked for directly finds nothing due.
    expect(await chargeRenewal(ctx.app.deps, actor, { renewalId: waiting!.id })).toBeNull();
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(0);
    expect((await renewalsOf(ctx, org.orgId))[0]!.status).toBe('awaiting_authentication');
  });

  it('a declined debit is retried 1, 3 and 5 days later, then waits; the operator records the payment once', async () => {
    const org = await onboard({ card: SANDBOX_FAILING_DEBITS_CARD });
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 47 * HOUR));
    await run();
    const tries: Date[] = [];
    for (const at of [0, 1, 3, 5].map((d) => new Date(start.getTime() + d * DAY))) {
      clock.set(new Date(at.getTime() - 1));
      await run();
      expect((await renewalsOf(ctx, org.orgId))[0]!.attempts).toBe(tries.length);
      clock.set(at);
      await run();
      tries.push(at);
      expect((await renewalsOf(ctx, org.orgId))[0]!.attempts).toBe(tries.length);
    }
    const [failed] = await renewalsOf(ctx, org.orgId);
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, nextAttemptAt: null });
    expect(failed!.lastError).toContain('declined');
    const told = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.organizationId, org.orgId), eq(notifications.kind, 'renewal_failed')));
    expect(new Set(told.map((n) => n.dedupeKey)).size).toBe(4);

    const body = {
      transactionId: `UTR-${randomUUID().slice(0, 8)}`,
      paymentMethod: 'upi',
      paymentDate: '2026-01-10',
    };
    expect((await org.admin.post(`/api/auth/renewals/${failed!.id}/payments`, body)).statusCode).toBe(403);
    const balance = await balanceOf(ctx, org.orgId);
    const recorded = await root.post(`/api/auth/renewals/${failed!.id}/payments`, body);
    expect(recorded.statusCode).toBe(201);
    expect(recorded.json().data.status).toBe('paid');
    expect(await balanceOf(ctx, org.orgId)).toBe(balance + 100);
    const again = await root.post(`/api/auth/renewals/${failed!.id}/payments`, {
      ...body,
      transactionId: 'UTR-other',
    });
    expect(again.statusCode).toBe(409);
    const invoiced = await ctx.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.paymentId, recorded.json().data.paymentId));
    expect(invoiced).toHaveLength(1);
  });
});

describe('paying a renewal online', () => {
  it('above ₹15,000 the admin approves it in checkout: paid once, invoiced, credits granted', async () => {
    const org = await onboard({ credits: 200, card: SANDBOX_TEST_CARD });
    clock.set(new Date(monthAfter(org.anchor).getTime() - 40 * HOUR));
    await run();
    const [waiting] = await renewalsOf(ctx, org.orgId);
    const balance = await balanceOf(ctx, org.orgId);

    const created = await org.admin.post(`/api/auth/renewals/${waiting!.id}/order`);
    expect(created.statusCode).toBe(201);
    const order = created.json().data.order;
    expect(order).toMatchObject({ amountPaise: 2_360_000, credits: 200 });
    const checkout = (
      await org.admin.post('/api/admin/payment/sandbox/pay', { razorpay_order_id: order.providerOrderId })
    ).json().data;
    const verified = await org.admin.post('/api/admin/payment/verify', checkout);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data.creditBalance).toBe(balance + 200);

    const [paid] = await renewalsOf(ctx, org.orgId);
    expect(paid).toMatchObject({ status: 'paid', paymentId: verified.json().data.payment.id });
    const invoiced = await ctx.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.paymentId, paid!.paymentId!));
    expect(invoiced).toHaveLength(1);
    // Verified again (a reload), nothing changes; a second order for it is refused.
    expect((await org.admin.post('/api/admin/payment/verify', checkout)).statusCode).toBe(200);
    expect(await balanceOf(ctx, org.orgId)).toBe(balance + 200);
    expect((await org.admin.post(`/api/auth/renewals/${waiting!.id}/order`)).statusCode).toBe(409);

    const other = await onboard();
    expect((await other.admin.post(`/api/auth/renewals/${waiting!.id}/order`)).statusCode).toBe(404);
  });
});

describe('webhooks of a renewal paid online', () => {
  const post = (raw: string, eventId: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/admin/payment/webhook',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': webhookSignature(
          (ctx.app.deps.payments as SandboxProvider).webhookSecret,
          raw,
        ),
        'x-razorpay-event-id': eventId,
      },
    });
  const event = (type: string, orderId: string, paymentId: string, amount: number, status: string) =>
    JSON.stringify({
      entity: 'event',
      event: type,
      payload: { payment: { entity: { id: paymentId, amount, currency: 'INR', status, order_id: orderId } } },
    });

  it('replayed, reordered and duplicated 10 times at once, settle it once', async () => {
    const org = await onboard({ credits: 200, card: SANDBOX_TEST_CARD });
    clock.set(new Date(monthAfter(org.anchor).getTime() - 40 * HOUR));
    await run();
    const [waiting] = await renewalsOf(ctx, org.orgId);
    const order = (await org.admin.post(`/api/auth/renewals/${waiting!.id}/order`)).json().data.order;
    const balance = await balanceOf(ctx, org.orgId);
    const id = order.providerOrderId as string;
    const amount = order.amountPaise as number;
    // A declined first try, then the approved one, announced as payment.captured and order.paid.
    const events = [
      [event('payment.failed', id, 'pay_RenewalDeclined1', amount, 'failed'), 'evt_RenewalFail01'],
      [event('payment.captured', id, 'pay_RenewalApproved1', amount, 'captured'), 'evt_RenewalCapt01'],
      [event('order.paid', id, 'pay_RenewalApproved1', amount, 'captured'), 'evt_RenewalPaid01'],
    ] as const;
    // Delivered newest first, each ten times, all at once; then replayed in order.
    const answers = await Promise.all(
      [...events].reverse().flatMap(([raw, eventId]) => Array.from({ length: 10 }, () => post(raw, eventId))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
    expect(answers.filter((a) => a.json().data.applied)).toHaveLength(1);
    for (const [raw, eventId] of events) expect((await post(raw, eventId)).json().data.duplicate).toBe(true);

    const [paid] = await renewalsOf(ctx, org.orgId);
    expect(paid!.status).toBe('paid');
    const captured = await capturedPayments(ctx, org.orgId);
    expect(captured.map((p) => p.providerPaymentId)).toEqual(['pay_RenewalApproved1']);
    expect(
      await ctx.database.db.select().from(invoices).where(eq(invoices.paymentId, captured[0]!.id)),
    ).toHaveLength(1);
    expect(await balanceOf(ctx, org.orgId)).toBe(balance + 200);
  });
});

describe('automatic renewal turned off', () => {
  it('stops an announced debit, and turned on again renews from the next period', async () => {
    const org = await onboard({ card: SANDBOX_TEST_CARD });
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 40 * HOUR));
    await run();
    expect((await org.admin.put('/api/auth/billing-plan', { autoRenew: false })).statusCode).toBe(200);
    clock.set(new Date(start.getTime() + DAY));
    await run();
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(0);
    expect((await renewalsOf(ctx, org.orgId)).map((r) => r.status)).toEqual(['skipped']);

    const on = await org.admin.put('/api/auth/billing-plan', { autoRenew: true });
    expect(on.json().data).toMatchObject({ autoRenew: true });
    clock.set(new Date(monthAfter(org.anchor, 2).getTime() - 40 * HOUR));
    await run();
    expect((await renewalsOf(ctx, org.orgId)).map((r) => [r.period, r.status])).toEqual([
      [1, 'skipped'],
      [2, 'notified'],
    ]);
  });
});

describe('the Renewals list', () => {
  it('groups renewals by what needs doing; a tenant sees only its own', async () => {
    const manual = await onboard();
    const big = await onboard({ credits: 200, card: SANDBOX_TEST_CARD });
    const card = await onboard({ card: SANDBOX_TEST_CARD });
    clock.set(new Date(monthAfter(card.anchor).getTime() - 3 * DAY));
    await run();
    const ids = new Set([manual.orgId, big.orgId, card.orgId]);
    const view = async (name: string, session = root) => {
      const res = await session.get(`/api/auth/renewals?view=${name}&pageSize=100`);
      expect(res.statusCode).toBe(200);
      return (
        res.json().data as { organizationId: string; status: string; organizationName: string }[]
      ).filter((r) => ids.has(r.organizationId));
    };
    expect((await view('due')).map((r) => r.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    clock.set(new Date(monthAfter(card.anchor).getTime() - 40 * HOUR));
    await run();
    expect((await view('pending')).map((r) => r.status).sort()).toEqual([
      'awaiting_authentication',
      'awaiting_payment',
    ]);
    expect((await view('due')).map((r) => [r.organizationId, r.status])).toEqual([[card.orgId, 'notified']]);
    expect((await view('due'))[0]!.organizationName).toBeTruthy();

    const own = await view('all', card.admin);
    expect(own.map((r) => r.organizationId)).toEqual([card.orgId]);
    const foreign = await card.admin.get(`/api/auth/renewals?organizationId=${manual.orgId}`);
    expect(foreign.statusCode).toBe(404);
    expect((await root.get('/api/auth/renewals?view=soon')).statusCode).toBe(400);
  });
});

describe('plan terms and unused credits', () => {
  it('a downgrade waits for the next renewal not yet announced; the price is the operator’s', async () => {
    const org = await onboard({ card: SANDBOX_TEST_CARD });
    clock.set(new Date(monthAfter(org.anchor).getTime() - 40 * HOUR));
    await run();
    const down = await org.admin.put('/api/auth/billing-plan/terms', { creditsPerPeriod: 50 });
    expect(down.statusCode).toBe(200);
    expect(down.json().data).toMatchObject({ creditsPerPeriod: 50, amountPaise: 590_000 });
    // Period 1 was announced at 100 credits: it keeps them.
    expect((await renewalsOf(ctx, org.orgId))[0]).toMatchObject({
      period: 1,
      credits: 100,
      amountPaise: 1_180_000,
    });
    clock.set(new Date(monthAfter(org.anchor, 2).getTime() - 6 * DAY));
    await run();
    expect((await renewalsOf(ctx, org.orgId))[1]).toMatchObject({
      period: 2,
      status: 'scheduled',
      credits: 50,
    });
    // Scheduled, not yet announced: a change still reaches it.
    expect((await org.admin.put('/api/auth/billing-plan/terms', { creditsPerPeriod: 60 })).statusCode).toBe(
      200,
    );
    expect((await renewalsOf(ctx, org.orgId))[1]).toMatchObject({ credits: 60, amountPaise: 708_000 });

    const price = await org.admin.put('/api/auth/billing-plan/terms', { pricePerCreditPaise: 100 });
    expect(price.statusCode).toBe(403);
    expect((await org.admin.put('/api/auth/billing-plan/terms', {})).statusCode).toBe(400);
    const other = await onboard();
    const foreign = await other.admin.put(`/api/auth/billing-plan/terms?organizationId=${org.orgId}`, {
      creditsPerPeriod: 1,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('an upgrade takes effect now: the rest of the period’s extra credits charged, invoiced and granted', async () => {
    const org = await onboard({ card: SANDBOX_TEST_CARD });
    const end = monthAfter(org.anchor);
    const half = new Date(org.anchor.getTime() + (end.getTime() - org.anchor.getTime()) / 2);
    clock.set(half);
    expect(
      (await org.admin.post('/api/auth/billing-plan/upgrade', { creditsPerPeriod: 100 })).statusCode,
    ).toBe(400);
    const created = await org.admin.post('/api/auth/billing-plan/upgrade', { creditsPerPeriod: 200 });
    expect(created.statusCode).toBe(201);
    const order = created.json().data.order;
    expect(order).toMatchObject({ credits: 50, amountPaise: 590_000 });
    const balance = await balanceOf(ctx, org.orgId);
    const checkout = (
      await org.admin.post('/api/admin/payment/sandbox/pay', { razorpay_order_id: order.providerOrderId })
    ).json().data;
    const verified = await org.admin.post('/api/admin/payment/verify', checkout);
    expect(verified.statusCode).toBe(200);
    expect(await balanceOf(ctx, org.orgId)).toBe(balance + 50);
    expect((await org.admin.get('/api/auth/billing-plan')).json().data.plan).toMatchObject({
      creditsPerPeriod: 200,
      amountPaise: 2_360_000,
    });
    const paymentId = verified.json().data.payment.id as string;
    expect(
      await ctx.database.db.select().from(invoices).where(eq(invoices.paymentId, paymentId)),
    ).toHaveLength(1);
    // The next renewal bills the new credits (above ₹15,000 now: it asks for approval).
    clock.set(new Date(end.getTime() - 40 * HOUR));
    await run();
    expect((await renewalsOf(ctx, org.orgId))[0]).toMatchObject({
      credits: 200,
      status: 'awaiting_authentication',
    });
  });

  it('no upgrade is sold for a plan whose last period has ended', async () => {
    const org = await onboard({ autoRenew: false });
    clock.set(monthAfter(org.anchor, 2));
    const res = await org.admin.post('/api/auth/billing-plan/upgrade', { creditsPerPeriod: 200 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.renewals.nothingToProrate);
  });

  it('at a renewal, unused credits above the rollover cap expire; every step is in the ledger', async () => {
    const org = await onboard({ card: SANDBOX_TEST_CARD });
    const cap = await root.put(`/api/auth/billing-plan/terms?organizationId=${org.orgId}`, {
      rolloverCap: 20,
    });
    expect(cap.statusCode).toBe(200);
    expect(cap.json().data.rolloverCap).toBe(20);
    const unused = await balanceOf(ctx, org.orgId);
    expect(unused).toBe(102);
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 40 * HOUR));
    await run();
    clock.set(start);
    await run();
    expect(await balanceOf(ctx, org.orgId)).toBe(20 + 100);
    const entries = await ctx.database.db
      .select({ delta: creditLedger.delta, reason: creditLedger.reason })
      .from(creditLedger)
      .where(eq(creditLedger.organizationId, org.orgId));
    expect(entries).toEqual(
      expect.arrayContaining([
        { delta: -82, reason: 'expiry' },
        { delta: 0, reason: 'rollover' },
        { delta: 100, reason: 'subscription' },
      ]),
    );
  });
});

describe('the mandate cancelled', () => {
  it('an announced debit is not taken: it waits to be paid like a manual renewal', async () => {
    const org = await onboard({ card: SANDBOX_TEST_CARD });
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 40 * HOUR));
    await run();
    const cancelled = await org.admin.post('/api/auth/billing-plan/mandate/cancel');
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data).toMatchObject({ collection: 'manual', mandateStatus: 'cancelled' });
    expect((await org.admin.post('/api/auth/billing-plan/mandate/cancel')).statusCode).toBe(409);
    clock.set(new Date(start.getTime() + HOUR));
    await run();
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(0);
    expect((await renewalsOf(ctx, org.orgId))[0]).toMatchObject({
      status: 'awaiting_payment',
      nextAttemptAt: null,
    });
  });
});

describe('cancelling now', () => {
  it('the operator cancels: the rest of the period refunded with a credit note, its credits taken back, once', async () => {
    const body = { ...onboardingBody({ withPayment: true }), autoRenew: true };
    const res = await root.post('/api/auth/onboarding', body, {
      headers: { [IDEMPOTENCY_HEADER]: randomUUID() },
    });
    const orgId = res.json().data.user.organizationId as string;
    const anchor = new Date(res.json().data.subscription.validFrom);
    const admin = (
      await createTenant(ctx, 'cancel', { organizationId: orgId, roleId: await roleIdByName(ctx) })
    ).session;
    const end = monthAfter(anchor);
    clock.set(new Date(anchor.getTime() + (end.getTime() - anchor.getTime()) / 2));
    const before = await balanceOf(ctx, orgId);

    const key = randomUUID();
    const refused = await admin.post(`/api/auth/billing-plan/cancel-now`, undefined, {
      headers: { [IDEMPOTENCY_HEADER]: key },
    });
    expect(refused.statusCode).toBe(403);
    expect((await root.post(`/api/auth/billing-plan/cancel-now?organizationId=${orgId}`)).statusCode).toBe(
      400,
    );
    const cancel = () =>
      root.post(`/api/auth/billing-plan/cancel-now?organizationId=${orgId}`, undefined, {
        headers: { [IDEMPOTENCY_HEADER]: key },
      });
    const done = await cancel();
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ refundedPaise: 590_000, plan: { autoRenew: false } });
    expect(done.json().data.creditNotes).toHaveLength(1);
    expect(await balanceOf(ctx, orgId)).toBe(before - 50);
    const again = await cancel();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await balanceOf(ctx, orgId)).toBe(before - 50);
    // Nothing renews after.
    clock.set(new Date(end.getTime() + HOUR));
    await run();
    expect(await renewalsOf(ctx, orgId)).toHaveLength(0);
  });
});

describe('dunning', () => {
  it('past due after the last retry, suspended 7 days later with nothing renewed; paying restores it', async () => {
    const org = await onboard({ card: SANDBOX_FAILING_DEBITS_CARD });
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 47 * HOUR));
    await run();
    for (const d of [0, 1, 3]) {
      clock.set(new Date(start.getTime() + d * DAY));
      await run();
    }
    const plan = async () => (await org.admin.get('/api/auth/billing-plan')).json().data.plan;
    expect(await plan()).toMatchObject({ status: 'active', owedPaise: 1_180_000 });
    clock.set(new Date(start.getTime() + 5 * DAY));
    await run();
    // The last try is declined by the charge job; the next run (15 minutes on) finds it owed.
    clock.advance(15 * 60_000);
    await run();
    expect(await plan()).toMatchObject({ status: 'past_due', pastDueSince: clock.now().toISOString() });

    const pastDueAt = clock.now().getTime();
    clock.set(new Date(pastDueAt + 7 * DAY - 1));
    await run();
    expect((await plan()).status).toBe('past_due');
    clock.set(new Date(pastDueAt + 7 * DAY));
    await run();
    expect((await plan()).status).toBe('suspended');
    const told = await ctx.database.db
      .select({ title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.organizationId, org.orgId), eq(notifications.kind, 'renewal_failed')));
    expect(told.map((n) => n.title)).toEqual(
      expect.arrayContaining([messages.renewals.pastDueTitle, messages.renewals.suspendedTitle]),
    );

    // Suspended: the next month is not scheduled.
    clock.set(new Date(monthAfter(org.anchor, 2).getTime() + HOUR));
    await run();
    expect((await renewalsOf(ctx, org.orgId)).map((r) => [r.period, r.status])).toEqual([[1, 'lapsed']]);

    const [owed] = await renewalsOf(ctx, org.orgId);
    const recorded = await root.post(`/api/auth/renewals/${owed!.id}/payments`, {
      transactionId: `UTR-${randomUUID().slice(0, 8)}`,
      paymentMethod: 'bank_transfer',
      paymentDate: '2026-02-01',
    });
    expect(recorded.statusCode).toBe(201);
    expect(await plan()).toMatchObject({ status: 'active', pastDueSince: null, owedPaise: 0 });
    clock.set(new Date(monthAfter(org.anchor, 3).getTime() - 40 * HOUR));
    await run();
    expect((await renewalsOf(ctx, org.orgId)).map((r) => [r.period, r.status])).toEqual(
      [
        [1, 'paid'],
        [3, 'failed'],
      ]
        .slice(0, 1)
        .concat([[3, 'notified']]),
    );
  });
});

describe('a manual customer', () => {
  it('gets the renewal notice with the amount due; unpaid, the period lapses', async () => {
    const org = await onboard();
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 30 * HOUR));
    await run();
    const [due] = await renewalsOf(ctx, org.orgId);
    expect(due).toMatchObject({ status: 'awaiting_payment', collection: 'manual', nextAttemptAt: null });
    const [notice] = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, org.orgId), eq(emailOutbox.kind, 'renewal_notice')));
    expect(notice!.subject).toBe(messages.renewals.manualTitle);
    expect(notice!.textBody).toContain('Amount due: ₹11,800');

    clock.set(monthAfter(org.anchor, 2));
    await run();
    const rows = await renewalsOf(ctx, org.orgId);
    expect(rows.map((r) => [r.period, r.status])).toEqual([
      [1, 'lapsed'],
      [2, 'awaiting_payment'],
    ]);
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(0);
  });
});

describe('races', () => {
  it('runs and charges racing each other open each period once and debit it once', async () => {
    const orgs = await Promise.all(Array.from({ length: 5 }, () => onboard({ card: SANDBOX_TEST_CARD })));
    clock.set(new Date(Math.max(...orgs.map((o) => monthAfter(o.anchor).getTime())) - 40 * HOUR));
    await Promise.all([run(), run(), run()]);
    clock.advance(41 * HOUR);
    const due = (await Promise.all(orgs.map((o) => renewalsOf(ctx, o.orgId)))).flat();
    expect(due).toHaveLength(5);
    await Promise.all(
      due.flatMap((r) => [
        chargeRenewal(ctx.app.deps, actor, { renewalId: r.id }),
        chargeRenewal(ctx.app.deps, actor, { renewalId: r.id }),
      ]),
    );
    await Promise.all([run(), run()]);
    for (const org of orgs) {
      expect(await capturedPayments(ctx, org.orgId)).toHaveLength(1);
      expect((await renewalsOf(ctx, org.orgId)).map((r) => r.status)).toEqual(['charged']);
    }
  });
});

describe('the test clock (TEST_CLOCK=on)', () => {
  it('exists only when asked for, never in production, and only for the platform operator', async () => {
    expect((await root.post('/api/auth/test-clock', { hours: 1 })).statusCode).toBe(404);
    expect(() =>
      loadEnv({
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://portal.example.com',
        PAYMENT_PROVIDER: 'sandbox',
        TEST_CLOCK: 'on',
      }),
    ).toThrow(/TEST_CLOCK/);

    const moved = await createTestApp({}, { env: { TEST_CLOCK: 'on' } });
    try {
      const operator = await signIn(moved.app);
      const body = { ...onboardingBody(), autoRenew: true };
      const res = await operator.post('/api/auth/onboarding', body, {
        headers: { [IDEMPOTENCY_HEADER]: randomUUID() },
      });
      const orgId = res.json().data.user.organizationId as string;
      const tenant = await createTenant(moved, 'clock', {
        organizationId: orgId,
        roleId: await roleIdByName(moved),
      });
      expect((await tenant.session.post('/api/auth/test-clock', { hours: 24 })).statusCode).toBe(403);
      expect((await operator.post('/api/auth/test-clock', { hours: 0 })).statusCode).toBe(400);

      const before = Date.now();
      const advanced = await operator.post('/api/auth/test-clock', { hours: 24 * 30 });
      expect(advanced.statusCode).toBe(200);
      expect(new Date(advanced.json().data.now).getTime()).toBeGreaterThanOrEqual(before + 30 * DAY);
      // A month on, the plan's renewal has been scheduled and announced: a manual customer's notice.
      const plan = (await tenant.session.get('/api/auth/billing-plan')).json().data;
      expect(plan.renewals[0]).toMatchObject({ period: 1, status: 'awaiting_payment' });
    } finally {
      await moved.close();
    }
  });
});
