import { createHmac, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_HEADER,
  messages,
  refundCreditsUnavailable,
  type CreditNote,
  type Invoice,
} from '@portal/shared';
import { createTestApp, signIn, type Session, type TestContext } from '../../../test/harness.js';
import { activityEntries, creditLedger, creditNotes, payments } from '../../db/schema/index.js';
import type { SandboxProvider } from '../../core/payments/index.js';
import { creditsToTakeBack } from './rules.js';
import { countRows, onboardingBody, tenantAdmin } from './test-helpers.js';

let ctx: TestContext;
let root: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
});
afterAll(() => ctx.close());

/** A new tenant onboarded with 100 credits (₹10,000 + 18 % = ₹11,800) paid by bank transfer, and 2 demo credits. */
async function paidTenant() {
  const res = await root.post('/api/auth/onboarding', onboardingBody({ withPayment: true }), {
    headers: { [IDEMPOTENCY_HEADER]: randomUUID() },
  });
  expect(res.statusCode, res.body).toBe(201);
  const data = res.json().data;
  return { orgId: data.user.organizationId as string, paymentId: data.payment.id as string };
}

const refund = (paymentId: string, amountPaise: number, key = randomUUID(), session = root) =>
  session.post(
    `/api/auth/payments/${paymentId}/refunds`,
    { amountPaise, reason: 'Customer asked' },
    { headers: { [IDEMPOTENCY_HEADER]: key } },
  );

async function balanceOf(orgId: string): Promise<number> {
  return (await root.get(`/api/auth/credits?organizationId=${orgId}`)).json().data.balance;
}

describe('creditsToTakeBack', () => {
  it('takes back the refunded share of the credits, half up, and never twice', () => {
    expect(
      creditsToTakeBack({ bought: 100, takenBack: 0, paidPaise: 1_180_000, refundedPaise: 295_000 }),
    ).toBe(25);
    expect(creditsToTakeBack({ bought: 25, takenBack: 0, paidPaise: 1_000, refundedPaise: 500 })).toBe(13);
    expect(creditsToTakeBack({ bought: 25, takenBack: 13, paidPaise: 1_000, refundedPaise: 1_000 })).toBe(12);
    expect(creditsToTakeBack({ bought: 0, takenBack: 0, paidPaise: 1_000, refundedPaise: 1_000 })).toBe(0);
  });
});

describe('POST /api/auth/payments/{id}/refunds', () => {
  it('a partial refund issues a credit note against the invoice and takes back the refunded share of credits', async () => {
    const { orgId, paymentId } = await paidTenant();
    const before = await balanceOf(orgId);
    expect(before).toBe(102);

    const res = await refund(paymentId, 295_000);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(messages.refunds.done);
    const { payment, creditNote, creditBalance } = res.json().data as {
      payment: { refundAmountPaise: number; refundDate: string; refundId: string; paymentStatus: string };
      creditNote: CreditNote;
      creditBalance: number;
    };
    const invoice = (await root.get(`/api/auth/invoices?organizationId=${orgId}`)).json().data[0] as Invoice;
    expect(creditNote).toMatchObject({
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
      paymentId,
      creditsTakenBack: 25,
      taxableValuePaise: 250_000,
      cgstPaise: 22_500,
      sgstPaise: 22_500,
      igstPaise: 0,
      totalPaise: 295_000,
    });
    expect(creditNote.number).toMatch(/^CN\/\d{2}-\d{2}\/\d{6}$/);
    expect(payment.refundAmountPaise).toBe(295_000);
    expect(payment.refundId).toBe(creditNote.refundId);
    expect(payment.refundDate).not.toBeNull();
    expect(payment.paymentStatus).toBe('CREATED');
    expect(creditBalance).toBe(77);
    expect(await balanceOf(orgId)).toBe(77);

    const listed = (await root.get(`/api/auth/invoices?organizationId=${orgId}`)).json().data[0] as Invoice;
    expect(listed.refundedPaise).toBe(295_000);
    const notes = (await root.get(`/api/auth/credit-notes?organizationId=${orgId}`)).json();
    expect(notes.data.map((n: CreditNote) => n.id)).toEqual([creditNote.id]);
    const activity = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(eq(activityEntries.organizationId, orgId));
    expect(activity.map((a) => a.message).join('\n')).toContain(`credit note ${creditNote.number}`);

    const pdf = await root.get(`/api/auth/credit-notes/${creditNote.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = (
      await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true })
    ).text;
    for (const particular of [
      'Credit Note',
      creditNote.number,
      invoice.number,
      'Customer asked',
      '2,950.00',
    ]) {
      expect(text, particular).toContain(particular);
    }
  });

  it('retried 10 times at once with one key: one refund, one credit note, one ledger entry', async () => {
    const { orgId, paymentId } = await paidTenant();
    const key = randomUUID();
    const before = await countRows(ctx);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(paymentId, 118_000, key)));
    // The first does the work; the others wait their turn (409 while it runs) or get its answer.
    expect(answers.filter((r) => r.statusCode === 201 && !r.headers['idempotent-replayed'])).toHaveLength(1);
    for (const r of answers) expect([201, 409]).toContain(r.statusCode);
    const after = await countRows(ctx);
    expect(after.credit_notes - before.credit_notes).toBe(1);
    const entries = await ctx.database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, orgId), eq(creditLedger.reason, 'refund')));
    expect(entries.map((e) => e.delta)).toEqual([-10]);
    const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(row!.refundAmountPaise).toBe(118_000);

    const again = await refund(paymentId, 118_000, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const first = answers.find((r) => r.statusCode === 201 && !r.headers['idempotent-replayed'])!;
    expect(again.json()).toEqual(first.json());
    expect((await countRows(ctx)).credit_notes).toBe(after.credit_notes);
  });

  it('never takes back more credits than are left unused, and says so', async () => {
    const { orgId, paymentId } = await paidTenant();
    await ctx.database.db
      .insert(creditLedger)
      .values({ organizationId: orgId, delta: -95, reason: 'usage', reference: 'interviews-1' });
    expect(await balanceOf(orgId)).toBe(7);
    const before = await countRows(ctx);
    const full = await refund(paymentId, 1_180_000);
    expect(full.statusCode).toBe(422);
    expect(full.json().message).toBe(refundCreditsUnavailable(100, 7));
    expect(await countRows(ctx)).toEqual({ ...before, idempotency_keys: before.idempotency_keys });
    // 5 % of the payment takes back 5 credits: within what is left.
    expect((await refund(paymentId, 59_000)).statusCode).toBe(201);
    expect(await balanceOf(orgId)).toBe(2);
  });

  it('refuses more than is left to refund; refunded in full, the payment is REFUNDED', async () => {
    const { paymentId } = await paidTenant();
    const tooMuch = await refund(paymentId, 1_180_001);
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().message).toBe(messages.refunds.amountTooLarge);
    expect((await refund(paymentId, 1_000_000)).statusCode).toBe(201);
    const rest = await refund(paymentId, 180_000);
    expect(rest.statusCode).toBe(201);
    expect(rest.json().data.payment.paymentStatus).toBe('REFUNDED');
    expect(rest.json().data.creditNote.creditsTakenBack).toBe(15);
    expect((await refund(paymentId, 1)).statusCode).toBe(422);
  });

  it('credit notes add up to their invoice, paisa for paisa, however the refund is split', async () => {
    const { orgId } = await tenantAdmin(ctx, 'Odd Split Co');
    // ₹2.00 at 18 %: taxable 169 paise (odd), CGST 15, SGST 16.
    const paid = await root.post('/api/auth/payments', {
      organizationId: orgId,
      amountPaise: 200,
      manualReferenceNumber: 'UTR-ODD-SPLIT',
    });
    const paymentId = paid.json().data.id as string;
    const halves = [await refund(paymentId, 100), await refund(paymentId, 100)].map(
      (r) => r.json().data.creditNote as CreditNote,
    );
    const sum = (field: 'taxableValuePaise' | 'cgstPaise' | 'sgstPaise' | 'igstPaise' | 'totalPaise') =>
      halves[0]![field] + halves[1]![field];
    const invoice = (await root.get(`/api/auth/invoices?organizationId=${orgId}`)).json().data[0] as Invoice;
    expect(invoice).toMatchObject({ taxableValuePaise: 169, cgstPaise: 15, sgstPaise: 16 });
    for (const field of ['taxableValuePaise', 'cgstPaise', 'sgstPaise', 'igstPaise', 'totalPaise'] as const) {
      expect(sum(field), field).toBe(invoice[field]);
    }
  });

  it('answers clearly for no key, bad amounts, an unknown payment and one without an invoice', async () => {
    const { paymentId } = await paidTenant();
    const noKey = await root.post(`/api/auth/payments/${paymentId}/refunds`, {
      amountPaise: 100,
      reason: 'x',
    });
    expect(noKey.statusCode).toBe(400);
    for (const amountPaise of [0, -5, 1.5, '100']) {
      const bad = await root.post(
        `/api/auth/payments/${paymentId}/refunds`,
        { amountPaise, reason: 'x' },
        { headers: { [IDEMPOTENCY_HEADER]: randomUUID() } },
      );
      expect(bad.statusCode, String(amountPaise)).toBe(400);
    }
    const blank = await root.post(
      `/api/auth/payments/${paymentId}/refunds`,
      { amountPaise: 100, reason: '   ' },
      { headers: { [IDEMPOTENCY_HEADER]: randomUUID() } },
    );
    expect(blank.statusCode).toBe(400);
    expect(JSON.stringify(blank.json())).toContain(messages.refunds.reasonRequired);
    expect((await refund(randomUUID(), 100)).statusCode).toBe(404);
    const { orgId } = await tenantAdmin(ctx, 'Legacy Co');
    const [legacy] = await ctx.database.db
      .insert(payments)
      .values({ organizationId: orgId, amountPaise: 10_000, paymentStatus: 'CREATED' })
      .returning();
    const noInvoice = await refund(legacy!.id, 100);
    expect(noInvoice.statusCode).toBe(422);
    expect(noInvoice.json().message).toBe(messages.refunds.notRefundable);
  });

  it('a tenant admin cannot refund, even their own payment', async () => {
    const tenant = await tenantAdmin(ctx, 'Self Refund Co');
    const res = await root.post('/api/auth/payments', {
      organizationId: tenant.orgId,
      amountPaise: 11_800,
      manualReferenceNumber: 'UTR-SELF-1',
    });
    const before = await countRows(ctx);
    expect((await refund(res.json().data.id, 100, randomUUID(), tenant.session)).statusCode).toBe(403);
    expect(await countRows(ctx)).toEqual(before);
  });
});

describe('online payments: the provider refunds, and its refund.processed webhook', () => {
  let secret: string;
  beforeAll(() => {
    secret = (ctx.app.deps.payments as SandboxProvider).webhookSecret;
  });

  async function boughtOnline(session: Session, credits: number) {
    const order = (await session.post('/api/admin/payment/order', { credits })).json().data;
    const paid = (
      await session.post('/api/admin/payment/sandbox/pay', {
        razorpay_order_id: order.order.providerOrderId,
        cardNumber: '4111111111111111',
      })
    ).json().data;
    const verified = await session.post('/api/admin/payment/verify', paid);
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json().data.payment as { id: string; providerPaymentId: string; amountPaise: number };
  }

  const webhook = (raw: string, eventId: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/admin/payment/webhook',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': createHmac('sha256', secret).update(raw).digest('hex'),
        'x-razorpay-event-id': eventId,
      },
    });
  const refundEvent = (refundId: string, providerPaymentId: string, amount: number) =>
    JSON.stringify({
      entity: 'event',
      event: 'refund.processed',
      payload: {
        refund: { entity: { id: refundId, payment_id: providerPaymentId, amount, status: 'processed' } },
      },
    });

  it('refunds through the provider; the webhook of that refund changes nothing, another refund is recorded', async () => {
    const tenant = await tenantAdmin(ctx, 'Online Refund Co');
    const payment = await boughtOnline(tenant.session, 10);
    const invoices = (await tenant.session.get('/api/auth/invoices')).json().data as Invoice[];
    expect(invoices.map((i) => i.paymentId)).toEqual([payment.id]);

    const res = await refund(payment.id, 59_000);
    expect(res.statusCode, res.body).toBe(201);
    const note = res.json().data.creditNote as CreditNote;
    expect(note.refundId).toMatch(/^rfnd_/);
    expect(note.creditsTakenBack).toBe(5);

    const before = await countRows(ctx);
    const same = await webhook(
      refundEvent(note.refundId, payment.providerPaymentId, 59_000),
      'evt_refund_same',
    );
    expect(same.statusCode).toBe(200);
    expect(same.json().data.applied).toBe(false);
    expect((await countRows(ctx)).credit_notes).toBe(before.credit_notes);

    // A refund made in Razorpay's dashboard reaches the portal by its webhook only, once.
    const raw = refundEvent('rfnd_Dashboard0001', payment.providerPaymentId, 59_000);
    const results = await Promise.all([webhook(raw, 'evt_refund_new'), webhook(raw, 'evt_refund_new_again')]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(results.filter((r) => r.json().data.applied)).toHaveLength(1);
    const rows = await ctx.database.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.paymentId, payment.id));
    expect(rows.map((r) => r.refundId).sort()).toEqual(['rfnd_Dashboard0001', note.refundId].sort());
    const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row!.refundAmountPaise).toBe(118_000);
    expect(row!.paymentStatus).toBe('REFUNDED');
    expect((await tenant.session.get('/api/auth/credits')).json().data.balance).toBe(0);
  });
});
