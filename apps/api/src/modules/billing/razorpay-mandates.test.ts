import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MANDATE_AUTHORIZATION_PAISE,
  MANDATE_SILENT_LIMIT_PAISE,
  messages,
  PRE_DEBIT_NOTICE_MIN_HOURS,
} from '@portal/shared';
import { createTestApp, signIn, type Session, type TestContext } from '../../../test/harness.js';
import {
  createRazorpayEmulator,
  type EmittedWebhook,
  type RazorpayEmulator,
} from '../../../test/razorpay-emulator.js';
import { systemActor } from '../../core/actor.js';
import { ManualClock } from '../../core/clock.js';
import { createRazorpayProvider, type RazorpayProvider } from '../../core/payments/index.js';
import { billingPlans, invoices, users } from '../../db/schema/index.js';
import { debitReceipt } from './rules.js';
import { runRenewals } from './renewals.service.js';
import {
  balanceOf,
  capturedPayments,
  monthAfter,
  onboardWithAdmin,
  renewalsOf,
  type OnboardedOrg,
} from './test-helpers.js';

/**
 * Renewals on a card mandate registered in Razorpay Checkout and debited through the official SDK's
 * calls, against the Razorpay emulator (test/razorpay-emulator.ts): authorization, debits asked once
 * per receipt, pending debits settled by webhook, webhooks replayed, reordered and duplicated, and the
 * mandate ended at the bank.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEY_SECRET = 'emulator-key-secret';
const WEBHOOK_SECRET = 'emulator-webhook-secret';

let ctx: TestContext;
let root: Session;
let clock: ManualClock;
let razorpay: RazorpayEmulator;
let provider: RazorpayProvider;
beforeAll(async () => {
  ctx = await createTestApp(
    {},
    {
      env: {
        PAYMENT_PROVIDER: 'razorpay',
        RAZORPAY_KEY_ID: 'rzp_test_emulator',
        RAZORPAY_KEY_SECRET: KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    },
  );
  root = await signIn(ctx.app);
});
afterAll(() => ctx.close());
beforeEach(() => {
  clock = new ManualClock(new Date());
  ctx.app.deps.clock = clock;
  razorpay = createRazorpayEmulator({ keySecret: KEY_SECRET, webhookSecret: WEBHOOK_SECRET });
  provider = createRazorpayProvider({
    keyId: 'rzp_test_emulator',
    keySecret: KEY_SECRET,
    webhookSecret: WEBHOOK_SECRET,
    api: razorpay.api,
  });
  ctx.app.deps.payments = provider;
});

const actor = systemActor('test');

async function run() {
  const result = await runRenewals(ctx.app.deps, actor);
  await ctx.app.deps.jobs.settled();
  return result;
}

type Org = OnboardedOrg;

async function onboard(credits = 100): Promise<Org> {
  const org = await onboardWithAdmin(ctx, root, { credits });
  // Razorpay's customer is made from the admin's email and mobile number.
  await ctx.database.db
    .update(users)
    .set({ mobileNo: '9876543210' })
    .where(eq(users.organizationId, org.orgId));
  return org;
}

/** The admin authorizes a card mandate in Checkout; answers the token. */
async function authorizeMandate(org: Org) {
  const order = await org.admin.post('/api/auth/billing-plan/mandate/order');
  expect(order.statusCode).toBe(200);
  const { token, answer } = razorpay.authorize(order.json().data.orderId);
  const verified = await org.admin.post('/api/auth/billing-plan/mandate/verify', answer);
  expect(verified.statusCode).toBe(200);
  await ctx.app.deps.jobs.settled();
  return { token, answer, order: order.json().data };
}

/** Delivers a webhook the emulator emitted, as Razorpay posts it. */
const deliver = (hook: EmittedWebhook) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/admin/payment/webhook',
    payload: hook.body,
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': hook.signature,
      'x-razorpay-event-id': hook.eventId,
    },
  });

const invoicesOf = (paymentId: string) =>
  ctx.database.db.select().from(invoices).where(eq(invoices.paymentId, paymentId));
describe('authorizing the mandate in Razorpay Checkout', () => {
  it('registers the token for at most ₹15,000 a debit and refunds the ₹1 once; a forged or foreign answer changes nothing', async () => {
    const org = await onboard();
    const order = await org.admin.post('/api/auth/billing-plan/mandate/order');
    expect(order.statusCode).toBe(200);
    expect(order.json().data).toMatchObject({
      amountPaise: MANDATE_AUTHORIZATION_PAISE,
      maxAmountPaise: MANDATE_SILENT_LIMIT_PAISE,
      checkout: { provider: 'razorpay', keyId: 'rzp_test_emulator' },
    });
    const { token, answer } = razorpay.authorize(order.json().data.orderId);

    const forged = await org.admin.post('/api/auth/billing-plan/mandate/verify', {
      ...answer,
      razorpay_signature: '0'.repeat(64),
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ success: false, message: messages.payment.signatureInvalid });
    // Another organization's admin cannot make this authorization theirs.
    const other = await onboard();
    await other.admin.post('/api/auth/billing-plan/mandate/order');
    const foreign = await other.admin.post('/api/auth/billing-plan/mandate/verify', answer);
    expect(foreign.statusCode).toBe(409);
    expect((await other.admin.get('/api/auth/billing-plan')).json().data.plan.mandateStatus).toBe('none');

    const verified = await org.admin.post('/api/auth/billing-plan/mandate/verify', answer);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({
      message: messages.renewals.mandateAuthorized,
      data: { collection: 'mandate', mandateStatus: 'authorized' },
    });
    // Checkout's answer again, and Razorpay's webhook of the same payment: nothing more happens.
    expect((await org.admin.post('/api/auth/billing-plan/mandate/verify', answer)).statusCode).toBe(200);
    const captured = razorpay.webhooks.find((w) => w.event === 'payment.captured')!;
    expect((await deliver(captured)).json().data.applied).toBe(false);
    await ctx.app.deps.jobs.settled();
    expect(razorpay.calls.refunds).toEqual([{ paymentId: answer.razorpay_payment_id, amount: 100 }]);
    const [plan] = await ctx.database.db
      .select()
      .from(billingPlans)
      .where(eq(billingPlans.organizationId, org.orgId));
    expect(plan).toMatchObject({ mandateToken: token, mandateOrderId: null });
  });

  it('the webhook registers it when Checkout’s answer never reached the portal', async () => {
    const org = await onboard();
    const order = await org.admin.post('/api/auth/billing-plan/mandate/order');
    const { token } = razorpay.authorize(order.json().data.orderId);
    const captured = razorpay.webhooks.find((w) => w.event === 'payment.captured')!;
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(captured)));
    expect(answers.filter((a) => a.json().data.applied)).toHaveLength(1);
    await ctx.app.deps.jobs.settled();
    expect((await org.admin.get('/api/auth/billing-plan')).json().data.plan.mandateStatus).toBe('authorized');
    expect(razorpay.calls.refunds).toHaveLength(1);
    expect(razorpay.token(token)?.status).toBe('confirmed');
  });

  it('needs the admin’s mobile number for Razorpay’s customer, and says so', async () => {
    const org = await onboard();
    await ctx.database.db.update(users).set({ mobileNo: null }).where(eq(users.organizationId, org.orgId));
    const order = await org.admin.post('/api/auth/billing-plan/mandate/order');
    expect(order.statusCode).toBe(422);
    expect(order.json()).toMatchObject({ success: false, message: messages.renewals.mandateNeedsMobile });
    expect(razorpay.webhooks).toHaveLength(0);
  });

  it('is not offered with the sandbox form, and the sandbox form is not offered with Razorpay', async () => {
    const org = await onboard();
    const sandbox = await org.admin.post('/api/admin/payment/sandbox/mandate', {
      cardNumber: '4111111111111111',
    });
    expect(sandbox.statusCode).toBe(404);
  });
});

// Each test moves the clock through several runs, each waiting for the jobs it queued.
describe('a renewal debited on the Razorpay mandate', { timeout: 90_000 }, () => {
  it('is asked of Razorpay once, after its notice: captured, invoiced and granted once, even asked again', async () => {
    const org = await onboard();
    await authorizeMandate(org);
    const start = monthAfter(org.anchor);
    const balance = await balanceOf(ctx, org.orgId);
    clock.set(new Date(start.getTime() - 48 * HOUR));
    await run();
    const [notified] = await renewalsOf(ctx, org.orgId);
    expect(notified).toMatchObject({ status: 'notified' });
    expect(start.getTime() - notified!.noticeSentAt!.getTime()).toBeGreaterThanOrEqual(
      PRE_DEBIT_NOTICE_MIN_HOURS * HOUR,
    );
    expect(razorpay.calls.recurringPayments).toBe(0);

    // A process asked Razorpay and died before recording the answer: the run asks again by receipt.
    const plan = (
      await ctx.database.db.select().from(billingPlans).where(eq(billingPlans.organizationId, org.orgId))
    )[0]!;
    const first = await provider.chargeMandate({
      mandate: { token: plan.mandateToken!, customerId: plan.mandateCustomerId },
      amountPaise: notified!.amountPaise,
      receipt: debitReceipt(notified!.id, 1),
      notes: { purpose: 'renewal', renewal_id: notified!.id, attempt: '1' },
    });
    expect(first.status).toBe('captured');

    clock.set(start);
    await run();
    await run();
    expect(razorpay.calls.recurringPayments).toBe(1);
    const [charged] = await renewalsOf(ctx, org.orgId);
    expect(charged).toMatchObject({ status: 'charged', attempts: 1 });
    const paid = await capturedPayments(ctx, org.orgId);
    expect(paid.map((p) => p.providerPaymentId)).toEqual([
      first.status === 'captured' ? first.providerPaymentId : null,
    ]);
    expect(await invoicesOf(paid[0]!.id)).toHaveLength(1);
    expect(await balanceOf(ctx, org.orgId)).toBe(balance + 100);
    // Razorpay's webhook of that debit, ten times at once: already recorded.
    const hook = razorpay.webhooks.filter((w) => w.event === 'payment.captured').at(-1)!;
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(hook)));
    expect(answers.filter((a) => a.json().data.applied)).toHaveLength(0);
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(1);
  });

  it('pending at the bank: settled by its webhooks, replayed, reordered and duplicated 10 times at once, once', async () => {
    const org = await onboard();
    await authorizeMandate(org);
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 48 * HOUR));
    await run();
    razorpay.setBank(() => 'pending');
    clock.set(start);
    await run();
    const [pending] = await renewalsOf(ctx, org.orgId);
    expect(pending).toMatchObject({ status: 'charging', attempts: 0 });
    // Asked again before the recheck time: nothing new is asked of Razorpay.
    await run();
    expect(razorpay.calls.recurringPayments).toBe(1);

    // The bank declines the first try; the retry a day later is pending too, then captured.
    const firstDebit = razorpay.debits()[0]!;
    razorpay.settle(firstDebit.id, 'failed');
    const declined = razorpay.webhooks.at(-1)!;
    expect((await deliver(declined)).json().data.applied).toBe(true);
    const [failed] = await renewalsOf(ctx, org.orgId);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    clock.set(new Date(start.getTime() + DAY));
    await run();
    expect(razorpay.calls.recurringPayments).toBe(2);
    const secondDebit = razorpay.debits()[1]!;
    razorpay.settle(secondDebit.id, 'captured');
    const capturedHook = razorpay.webhooks.at(-1)!;

    // Every event so far, newest first, ten times each, all at once; then in order once more.
    const events = [declined, capturedHook];
    const answers = await Promise.all(
      [...events].reverse().flatMap((hook) => Array.from({ length: 10 }, () => deliver(hook))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.json().data.applied)).toHaveLength(1);
    for (const hook of events) expect((await deliver(hook)).json().data.duplicate).toBe(true);

    const [charged] = await renewalsOf(ctx, org.orgId);
    expect(charged).toMatchObject({ status: 'charged', attempts: 2 });
    const paid = await capturedPayments(ctx, org.orgId);
    expect(paid.map((p) => p.providerPaymentId)).toEqual([secondDebit.id]);
    expect(await invoicesOf(paid[0]!.id)).toHaveLength(1);
    // The job's recheck after the lease finds the renewal settled and asks nothing.
    clock.set(new Date(start.getTime() + DAY + HOUR));
    await run();
    expect(razorpay.calls.recurringPayments).toBe(2);
  });

  it('above ₹15,000 is never debited silently; the admin pays it in Checkout instead', async () => {
    const org = await onboard(200);
    await authorizeMandate(org);
    clock.set(new Date(monthAfter(org.anchor).getTime() + HOUR));
    await run();
    const [big] = await renewalsOf(ctx, org.orgId);
    expect(big).toMatchObject({ status: 'awaiting_authentication', amountPaise: 2_360_000 });
    expect(razorpay.calls.recurringPayments).toBe(0);
    const order = await org.admin.post(`/api/auth/renewals/${big!.id}/order`);
    expect(order.statusCode).toBe(201);
  });

  it('the mandate cancelled at the bank ends here too; the announced debit waits to be paid', async () => {
    const org = await onboard();
    const { token } = await authorizeMandate(org);
    clock.set(new Date(monthAfter(org.anchor).getTime() - 48 * HOUR));
    await run();
    razorpay.cancelAtBank(token);
    const ended = razorpay.webhooks.at(-1)!;
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(ended)));
    expect(answers.filter((a) => a.json().data.applied)).toHaveLength(1);
    expect((await org.admin.get('/api/auth/billing-plan')).json().data.plan).toMatchObject({
      collection: 'manual',
      mandateStatus: 'cancelled',
    });
    expect((await renewalsOf(ctx, org.orgId))[0]!.status).toBe('awaiting_payment');
    clock.set(monthAfter(org.anchor));
    await run();
    expect(razorpay.calls.recurringPayments).toBe(0);
  });

  it('cancelled by the admin: the token is deleted at Razorpay by a job, once', async () => {
    const org = await onboard();
    const { token } = await authorizeMandate(org);
    const cancelled = await org.admin.post('/api/auth/billing-plan/mandate/cancel');
    expect(cancelled.statusCode).toBe(200);
    await ctx.app.deps.jobs.settled();
    expect(razorpay.token(token)?.status).toBe('cancelled');
    expect((await org.admin.post('/api/auth/billing-plan/mandate/cancel')).statusCode).toBe(409);
  });

  it('refused by Razorpay (the token ended, its webhook lost): declined, retried, then recorded as paid by hand', async () => {
    const org = await onboard();
    const { token } = await authorizeMandate(org);
    razorpay.cancelAtBank(token);
    const start = monthAfter(org.anchor);
    clock.set(new Date(start.getTime() - 48 * HOUR));
    await run();
    clock.set(start);
    await run();
    const [failed] = await renewalsOf(ctx, org.orgId);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: 'The token is not active' });
    expect(failed!.nextAttemptAt).toEqual(new Date(start.getTime() + DAY));
    clock.set(new Date(start.getTime() + DAY));
    await run();
    expect((await renewalsOf(ctx, org.orgId))[0]).toMatchObject({ status: 'failed', attempts: 2 });
    expect(razorpay.calls.recurringPayments).toBe(0);

    const paid = await root.post(`/api/auth/renewals/${failed!.id}/payments`, {
      paymentMethod: 'upi',
      transactionId: `UTR-${randomUUID().slice(0, 8)}`,
      paymentDate: '2026-01-10',
    });
    expect(paid.statusCode).toBe(201);
    expect((await renewalsOf(ctx, org.orgId))[0]).toMatchObject({ status: 'paid' });
    expect(await capturedPayments(ctx, org.orgId)).toHaveLength(0);
  });
});
