import { createHmac } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
// The official SDK's checks; a signature they accept must be accepted by the portal and vice versa.
import { validatePaymentVerification, validateWebhookSignature } from 'razorpay/dist/utils/razorpay-utils.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages, PLATFORM_PRICE_PER_CREDIT_PAISE, SANDBOX_DECLINED_CARD } from '@portal/shared';
import { createTestApp, type Session, type TestContext } from '../../../test/harness.js';
import {
  activityEntries,
  creditLedger,
  notifications,
  paymentOrders,
  payments,
} from '../../db/schema/index.js';
import type { SandboxProvider } from '../../core/payments/index.js';
import { countRows, tenantAdmin, userWithGrants } from './test-helpers.js';

let ctx: TestContext;
let tenant: { orgId: string; session: Session };
let other: { orgId: string; session: Session };
let secret: string;
beforeAll(async () => {
  ctx = await createTestApp();
  tenant = await tenantAdmin(ctx, 'Buyer Co');
  other = await tenantAdmin(ctx, 'Other Co');
  secret = (ctx.app.deps.payments as SandboxProvider).webhookSecret;
});
afterAll(() => ctx.close());

async function balance(session: Session): Promise<number> {
  return (await session.get('/api/auth/credits')).json().data.balance;
}

async function order(session: Session, credits: number) {
  const res = await session.post('/api/admin/payment/order', { credits });
  expect(res.statusCode).toBe(201);
  return res.json().data;
}

const sign = (orderId: string, paymentId: string) =>
  createHmac('sha256', secret).update(`${orderId}|${paymentId}`).digest('hex');

/** Every 1-character change of a string: each position replaced by another character. */
function oneCharChanges(value: string): string[] {
  return Array.from(value, (ch, i) => value.slice(0, i) + (ch === 'a' ? 'b' : 'a') + value.slice(i + 1));
}

describe('online payment: order → sandbox checkout → verify', () => {
  it('prices the order on the server (₹100 per credit + 18% GST) and answers order_created', async () => {
    const res = await tenant.session.post('/api/admin/payment/order', { credits: 25, amountPaise: 1 });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.status).toBe('order_created');
    expect(data.message).toBe(messages.payment.orderCreated);
    expect(data.order).toMatchObject({
      organizationId: tenant.orgId,
      provider: 'sandbox',
      credits: 25,
      amountPaise: 25 * PLATFORM_PRICE_PER_CREDIT_PAISE * 1.18,
      currency: 'INR',
      status: 'order_created',
    });
    expect(data.order.providerOrderId).toMatch(/^order_[A-Za-z0-9]{14}$/);
    expect(data.checkout).toMatchObject({ provider: 'sandbox', keyId: null });
  });

  it('verifies a sandbox payment, grants the credits once, extends the subscription and tells the admins', async () => {
    const start = await balance(tenant.session);
    const o = await order(tenant.session, 10);
    const paid = await tenant.session.post('/api/admin/payment/sandbox/pay', {
      razorpay_order_id: o.order.providerOrderId,
    });
    expect(paid.statusCode).toBe(200);
    const checkout = paid.json().data;
    expect(checkout.razorpay_payment_id).toMatch(/^pay_[A-Za-z0-9]{14}$/);
    // The sandbox signs exactly as Razorpay does: the official SDK accepts its signature.
    expect(
      validatePaymentVerification(
        { order_id: checkout.razorpay_order_id, payment_id: checkout.razorpay_payment_id },
        checkout.razorpay_signature,
        secret,
      ),
    ).toBe(true);

    const verified = await tenant.session.post('/api/admin/payment/verify', checkout);
    expect(verified.statusCode).toBe(200);
    const data = verified.json().data;
    expect(data).toMatchObject({ status: 'payment_verified', message: messages.payment.verified });
    expect(data.creditBalance).toBe(start + 10);
    expect(data.payment).toMatchObject({
      paymentStatus: 'CAPTURED',
      paymentMethod: 'ONLINE',
      providerPaymentId: checkout.razorpay_payment_id,
      providerOrderId: o.order.providerOrderId,
      amountPaise: o.order.amountPaise,
    });
    expect(data.order).toMatchObject({ status: 'payment_verified', paymentId: data.payment.id });

    // Verifying the same payment again answers the same and grants nothing more.
    const again = await tenant.session.post('/api/admin/payment/verify', checkout);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.payment.id).toBe(data.payment.id);
    expect(await balance(tenant.session)).toBe(start + 10);
    const grants = await ctx.database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, tenant.orgId), eq(creditLedger.reason, 'purchase')));
    expect(grants.filter((g) => g.reference === checkout.razorpay_payment_id)).toHaveLength(1);

    const summary = (await tenant.session.get('/api/auth/credits')).json().data;
    expect(summary.subscription).toMatchObject({
      paymentId: data.payment.id,
      subscription: true,
      status: 'ACTIVE',
    });
    const [note] = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.organizationId, tenant.orgId), eq(notifications.kind, 'payment_verified')));
    expect(note).toBeDefined();
    const [entry] = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityId, o.order.id), eq(activityEntries.action, 'updated')));
    expect(entry!.message).toContain(checkout.razorpay_payment_id);
  });

  it('a second purchase is the next month: it starts when the running one ends, listed as upcoming', async () => {
    const running = (await tenant.session.get('/api/auth/credits')).json().data.subscription;
    const o = await order(tenant.session, 1);
    const checkout = (
      await tenant.session.post('/api/admin/payment/sandbox/pay', {
        razorpay_order_id: o.order.providerOrderId,
      })
    ).json().data;
    expect((await tenant.session.post('/api/admin/payment/verify', checkout)).statusCode).toBe(200);
    const summary = (await tenant.session.get('/api/auth/credits')).json().data;
    // The running period is still what Billing shows as current; the bought month follows it.
    expect(summary.subscription.id).toBe(running.id);
    expect(summary.upcoming).toHaveLength(1);
    expect(summary.upcoming[0]).toMatchObject({ totalInterviewCredits: 1, validFrom: running.validUntil });
    expect(new Date(summary.upcoming[0].validUntil).getTime()).toBeGreaterThan(
      new Date(running.validUntil).getTime() + 27 * 86_400_000,
    );
  });

  it('accepts a signature made for another payment id with the SDK-compatible HMAC, and refuses every 1-character change', async () => {
    const o = await order(tenant.session, 3);
    const orderId: string = o.order.providerOrderId;
    const paymentId = 'pay_ABCDEFGHabcdef';
    const signature = sign(orderId, paymentId);
    expect(validatePaymentVerification({ order_id: orderId, payment_id: paymentId }, signature, secret)).toBe(
      true,
    );
    const before = await countRows(ctx);
    const startBalance = await balance(tenant.session);

    const tampered = [
      ...oneCharChanges(signature).map((s) => ({
        razorpay_order_id: orderId,
        razorpay_payment_id: paymentId,
        razorpay_signature: s,
      })),
      ...oneCharChanges(paymentId).map((p) => ({
        razorpay_order_id: orderId,
        razorpay_payment_id: p,
        razorpay_signature: signature,
      })),
      ...oneCharChanges(orderId).map((id) => ({
        razorpay_order_id: id,
        razorpay_payment_id: paymentId,
        razorpay_signature: signature,
      })),
    ];
    for (const body of tampered) {
      // The SDK agrees that each change breaks the signature.
      expect(
        validatePaymentVerification(
          { order_id: body.razorpay_order_id, payment_id: body.razorpay_payment_id },
          body.razorpay_signature,
          secret,
        ),
      ).toBe(false);
      const res = await tenant.session.post('/api/admin/payment/verify', body);
      // A changed order id names no order of this tenant (404); other changes fail the signature (400).
      expect([400, 404]).toContain(res.statusCode);
      if (res.statusCode === 400) expect(res.json().message).toBe(messages.payment.signatureInvalid);
    }
    const afterTampering = await countRows(ctx);
    expect(afterTampering.payments).toBe(before.payments);
    expect(afterTampering.credit_ledger).toBe(before.credit_ledger);
    const [failed] = await ctx.database.db
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.id, o.order.id));
    expect(failed!.status).toBe('payment_failed');

    // The genuine signature still verifies (a failed attempt does not close the order).
    const ok = await tenant.session.post('/api/admin/payment/verify', {
      razorpay_order_id: orderId,
      razorpay_payment_id: paymentId,
      razorpay_signature: signature,
    });
    expect(ok.statusCode).toBe(200);
    expect(await balance(tenant.session)).toBe(startBalance + 3);
  });

  it("never trusts the client's order: another organization's order answers 404 and grants nothing", async () => {
    const o = await order(other.session, 5);
    const checkout = (
      await other.session.post('/api/admin/payment/sandbox/pay', {
        razorpay_order_id: o.order.providerOrderId,
      })
    ).json().data;
    const before = await countRows(ctx);
    expect((await tenant.session.post('/api/admin/payment/verify', checkout)).statusCode).toBe(404);
    expect(
      (
        await tenant.session.post('/api/admin/payment/sandbox/pay', {
          razorpay_order_id: o.order.providerOrderId,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await tenant.session.post('/api/admin/payment/order', { credits: 1, organizationId: other.orgId }))
        .statusCode,
    ).toBe(404);
    expect(await countRows(ctx)).toEqual(before);
  });

  it('a paid order cannot be paid again, and a payment for another order is refused', async () => {
    const o1 = await order(tenant.session, 2);
    const c1 = (
      await tenant.session.post('/api/admin/payment/sandbox/pay', {
        razorpay_order_id: o1.order.providerOrderId,
      })
    ).json().data;
    expect((await tenant.session.post('/api/admin/payment/verify', c1)).statusCode).toBe(200);
    const repay = await tenant.session.post('/api/admin/payment/sandbox/pay', {
      razorpay_order_id: o1.order.providerOrderId,
    });
    expect(repay.statusCode).toBe(409);
    const second = {
      ...c1,
      razorpay_payment_id: 'pay_SecondPayment1',
      razorpay_signature: sign(c1.razorpay_order_id, 'pay_SecondPayment1'),
    };
    const before = await countRows(ctx);
    expect((await tenant.session.post('/api/admin/payment/verify', second)).statusCode).toBe(409);
    expect(await countRows(ctx)).toEqual(before);
  });

  it('the declined test card fails the payment (402, payment_failed)', async () => {
    const o = await order(tenant.session, 4);
    const res = await tenant.session.post('/api/admin/payment/sandbox/pay', {
      razorpay_order_id: o.order.providerOrderId,
      cardNumber: SANDBOX_DECLINED_CARD,
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe(messages.billing.cardDeclined);
    const [row] = await ctx.database.db.select().from(paymentOrders).where(eq(paymentOrders.id, o.order.id));
    expect(row!.status).toBe('payment_failed');
  });

  it('a provider failure answers 502 with its reason and records an order_failed order', async () => {
    const spy = vi
      .spyOn(ctx.app.deps.payments, 'createOrder')
      .mockRejectedValueOnce({ statusCode: 400, error: { description: 'Authentication failed' } });
    const before = await countRows(ctx);
    const res = await tenant.session.post('/api/admin/payment/order', { credits: 1 });
    spy.mockRestore();
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe(`${messages.fallback.createPaymentOrder}: Authentication failed`);
    expect(res.json().errors).toEqual({ status: ['order_failed'] });
    expect((await countRows(ctx)).payment_orders - before.payment_orders).toBe(1);
    const failed = await ctx.database.db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.organizationId, tenant.orgId), eq(paymentOrders.status, 'order_failed')));
    expect(failed).toHaveLength(1);
  });

  it('the sandbox checkout is 404 when Razorpay is the provider', async () => {
    const sandbox = ctx.app.deps.payments;
    const o = await order(tenant.session, 1);
    ctx.app.deps.payments = { ...sandbox, name: 'razorpay' };
    try {
      const res = await tenant.session.post('/api/admin/payment/sandbox/pay', {
        razorpay_order_id: o.order.providerOrderId,
      });
      expect(res.statusCode).toBe(404);
    } finally {
      ctx.app.deps.payments = sandbox;
    }
  });

  it('permissions: ordering needs Subscription Management CREATE (403 without)', async () => {
    const reader = await userWithGrants(ctx, tenant.orgId, { subscriptions: ['READ'] });
    expect((await reader.post('/api/admin/payment/order', { credits: 1 })).statusCode).toBe(403);
    expect(
      (
        await reader.post('/api/admin/payment/verify', {
          razorpay_order_id: 'order_x',
          razorpay_payment_id: 'pay_x',
          razorpay_signature: 'x',
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('webhook', () => {
  const post = (raw: string, signature: string, eventId?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/admin/payment/webhook',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': signature,
        ...(eventId ? { 'x-razorpay-event-id': eventId } : {}),
      },
    });

  function capturedEvent(orderId: string, paymentId: string, amount: number) {
    // Spacing and key order as sent: the signature covers these exact bytes.
    return `{"entity":"event","event":"payment.captured","contains":["payment"],"payload":{"payment":{"entity":{"id":"${paymentId}","amount":${amount},"currency":"INR","status":"captured","order_id":"${orderId}"}}},  "created_at":1700000000}`;
  }

  it('applies a signed payment.captured once, even sent 10 times concurrently', async () => {
    const o = await order(tenant.session, 7);
    const startBalance = await balance(tenant.session);
    const raw = capturedEvent(o.order.providerOrderId, 'pay_WebhookPay0001', o.order.amountPaise);
    const signature = createHmac('sha256', secret).update(raw).digest('hex');
    expect(validateWebhookSignature(raw, signature, secret)).toBe(true);
    const before = await countRows(ctx);

    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(raw, signature, 'evt_Concurrent001')),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const applied = results.filter((r) => r.json().data.applied);
    const duplicates = results.filter((r) => r.json().data.duplicate);
    expect(applied).toHaveLength(1);
    expect(duplicates).toHaveLength(9);

    const after = await countRows(ctx);
    expect(after.payments - before.payments).toBe(1);
    expect(after.subscriptions - before.subscriptions).toBe(1);
    expect(after.credit_ledger - before.credit_ledger).toBe(1);
    expect(after.webhook_events - before.webhook_events).toBe(1);
    expect(await balance(tenant.session)).toBe(startBalance + 7);
    const [row] = await ctx.database.db.select().from(paymentOrders).where(eq(paymentOrders.id, o.order.id));
    expect(row!.status).toBe('payment_verified');

    // The same payment through the checkout's verify afterwards changes nothing either.
    const verify = await tenant.session.post('/api/admin/payment/verify', {
      razorpay_order_id: o.order.providerOrderId,
      razorpay_payment_id: 'pay_WebhookPay0001',
      razorpay_signature: sign(o.order.providerOrderId, 'pay_WebhookPay0001'),
    });
    expect(verify.statusCode).toBe(200);
    expect(await countRows(ctx)).toEqual(after);
  });

  it('a verified payment then its webhook (another event id) grant once', async () => {
    const o = await order(tenant.session, 2);
    const checkout = (
      await tenant.session.post('/api/admin/payment/sandbox/pay', {
        razorpay_order_id: o.order.providerOrderId,
      })
    ).json().data;
    expect((await tenant.session.post('/api/admin/payment/verify', checkout)).statusCode).toBe(200);
    const before = await countRows(ctx);
    const raw = capturedEvent(o.order.providerOrderId, checkout.razorpay_payment_id, o.order.amountPaise);
    const res = await post(raw, createHmac('sha256', secret).update(raw).digest('hex'), 'evt_AfterVerify01');
    expect(res.json().data).toEqual({ applied: false, duplicate: false });
    expect(await countRows(ctx)).toEqual({ ...before, webhook_events: before.webhook_events + 1 });
  });

  it('refuses a bad signature or a changed body (400) and applies nothing', async () => {
    const o = await order(tenant.session, 1);
    const raw = capturedEvent(o.order.providerOrderId, 'pay_WebhookPay0002', o.order.amountPaise);
    const signature = createHmac('sha256', secret).update(raw).digest('hex');
    const before = await countRows(ctx);
    const changedBody = raw.replace('"amount":', '"amount": ');
    expect(validateWebhookSignature(changedBody, signature, secret)).toBe(false);
    for (const [body, sig] of [
      [changedBody, signature],
      [raw, oneCharChanges(signature)[5]!],
      [raw, ''],
    ] as const) {
      const res = await post(body, sig);
      expect(res.statusCode).toBe(400);
    }
    expect(await countRows(ctx)).toEqual(before);
  });

  it('an amount different from the order is acknowledged but not applied', async () => {
    const o = await order(tenant.session, 1);
    const raw = capturedEvent(o.order.providerOrderId, 'pay_WrongAmount001', 100);
    const res = await post(raw, createHmac('sha256', secret).update(raw).digest('hex'), 'evt_WrongAmount01');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.applied).toBe(false);
    const [row] = await ctx.database.db
      .select()
      .from(payments)
      .where(eq(payments.providerPaymentId, 'pay_WrongAmount001'));
    expect(row).toBeUndefined();
  });

  it('payment.failed marks an open order failed', async () => {
    const o = await order(tenant.session, 1);
    const raw = JSON.stringify({
      event: 'payment.failed',
      payload: {
        payment: {
          entity: { id: 'pay_Failed000001', order_id: o.order.providerOrderId, amount: o.order.amountPaise },
        },
      },
    });
    const res = await post(raw, createHmac('sha256', secret).update(raw).digest('hex'));
    expect(res.json().data.applied).toBe(true);
    const [row] = await ctx.database.db.select().from(paymentOrders).where(eq(paymentOrders.id, o.order.id));
    expect(row!.status).toBe('payment_failed');
  });
});
