import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER, messages } from '@portal/shared';
import {
  createTestApp,
  roleIdByName,
  signIn,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { activityEntries, creditLedger, payments, subscriptions } from '../../db/schema/index.js';
import { countRows, tenantAdmin, terms, userWithGrants } from './test-helpers.js';

let ctx: TestContext;
let root: Session;
let tenantA: { orgId: string; session: Session };
let tenantB: { orgId: string; session: Session };
beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  tenantA = await tenantAdmin(ctx, 'Tenant A');
  tenantB = await tenantAdmin(ctx, 'Tenant B');
});
afterAll(() => ctx.close());

const subscriptionBody = (organizationId: string, over: Record<string, unknown> = {}) => ({
  organizationId,
  paymentId: null,
  subscribedProducts: ['AI_INTERVIEW_BOT'],
  billingCycle: 'MONTHLY',
  totalPositionCredits: 0,
  positionCreditsPrice: 0,
  taxInclusive: true,
  discountPercentage: 0,
  discountAmountPaise: 0,
  discountCode: '',
  status: 'ACTIVE',
  subscription: true,
  ...terms(50, 20_000, 1_800, 0),
  ...over,
});

describe('onboarding in four separate calls (user, subscription, payment, link)', () => {
  it('creates the subscription and the payment with the manual-payment defaults, then links them', async () => {
    const orgId = randomUUID();
    const user = await root.post('/api/auth/users/as/admin', {
      username: `four.${orgId.slice(0, 6)}`,
      email: `four.${orgId.slice(0, 6)}@acme.test`,
      mobileNo: '9876543210',
      client: 'Four Steps Ltd',
      organizationId: orgId,
      roleId: await roleIdByName(ctx),
      isSubscription: true,
    });
    expect(user.statusCode).toBe(201);

    const sub = await root.post('/api/auth/subscriptions', subscriptionBody(orgId));
    expect(sub.statusCode).toBe(201);
    const subscription = sub.json().data;
    expect(subscription).toMatchObject({
      organizationId: orgId,
      paymentId: null,
      subscription: true,
      status: 'ACTIVE',
    });

    const pay = await root.post('/api/auth/payments', {
      organizationId: orgId,
      subscriptionId: subscription.id,
      amountPaise: subscription.grandTotalAmountPaise,
      manualReferenceNumber: 'CHQ-001',
      paymentProofReference: 'CHQ-001',
    });
    expect(pay.statusCode).toBe(201);
    const payment = pay.json().data;
    expect(payment).toMatchObject({
      paymentStatus: 'CREATED',
      paymentMethod: 'MANUAL',
      receivedBy: 'admin',
      paymentNotes: messages.payment.defaultNotes,
      paymentCapture: true,
      refundAmountPaise: 0,
      subscriptionId: subscription.id,
      amountPaise: 1_180_000,
    });

    const link = await root.put(`/api/auth/subscriptions/${subscription.id}`, { paymentId: payment.id });
    expect(link.statusCode).toBe(200);
    expect(link.json().data.paymentId).toBe(payment.id);

    const grants = await ctx.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.organizationId, orgId));
    expect(grants.map((g) => [g.reason, g.delta])).toEqual([['subscription', 50]]);

    const list = await root.get(`/api/auth/subscriptions?organizationId=${orgId}`);
    expect(list.json()).toMatchObject({ meta: { page: 1, pageSize: 10, total: 1 } });
    expect(list.json().data[0].paymentId).toBe(payment.id);
  });

  it('refuses amounts that disagree (400) and creates nothing', async () => {
    const before = await countRows(ctx);
    const res = await root.post(
      '/api/auth/subscriptions',
      subscriptionBody(tenantA.orgId, { subTotalPaise: 999_900 }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.subscription.amountsMismatch);
    expect(await countRows(ctx)).toEqual(before);
  });

  it('with an Idempotency-Key a retried subscription or payment is created once', async () => {
    const before = await countRows(ctx);
    const headers = { [IDEMPOTENCY_HEADER]: `sub-${randomUUID()}` };
    const body = subscriptionBody(tenantA.orgId, { demoTrials: 5 });
    const [a, b] = await Promise.all([
      root.post('/api/auth/subscriptions', body, { headers }),
      root.post('/api/auth/subscriptions', body, { headers }),
    ]);
    const third = await root.post('/api/auth/subscriptions', body, { headers });
    // Concurrent twins: one runs, the other replays its answer or is told it is still running.
    expect([a.statusCode, b.statusCode]).toContain(201);
    for (const r of [a, b]) expect([201, 409]).toContain(r.statusCode);
    expect(third.statusCode).toBe(201);
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.json().data.id).toBe((a.statusCode === 201 ? a : b).json().data.id);

    const payHeaders = { [IDEMPOTENCY_HEADER]: `pay-${randomUUID()}` };
    const payBody = {
      organizationId: tenantA.orgId,
      amountPaise: 50_000,
      manualReferenceNumber: `R-${randomUUID()}`,
    };
    const p1 = await root.post('/api/auth/payments', payBody, { headers: payHeaders });
    const p2 = await root.post('/api/auth/payments', payBody, { headers: payHeaders });
    expect(p1.statusCode).toBe(201);
    expect(p2.json()).toEqual(p1.json());

    const after = await countRows(ctx);
    expect(after.subscriptions - before.subscriptions).toBe(1);
    expect(after.credit_ledger - before.credit_ledger).toBe(2);
    expect(after.payments - before.payments).toBe(1);
  });

  it('never records the same transaction id twice for an organization, even concurrently', async () => {
    const reference = `NEFT-${randomUUID().slice(0, 8)}`;
    const before = await countRows(ctx);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        root.post('/api/auth/payments', {
          organizationId: tenantB.orgId,
          amountPaise: 10_000,
          paymentMethod: 'upi',
          manualReferenceNumber: reference,
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toBe(
      messages.billing.duplicateTransaction,
    );
    expect((await countRows(ctx)).payments - before.payments).toBe(1);
    const [row] = await ctx.database.db
      .select()
      .from(payments)
      .where(eq(payments.manualReferenceNumber, reference));
    expect(row!.paymentMethod).toBe('UPI');
  });

  it('refuses a payment that belongs to another subscription or organization', async () => {
    const subA = (await root.post('/api/auth/subscriptions', subscriptionBody(tenantA.orgId))).json().data;
    const subB = (await root.post('/api/auth/subscriptions', subscriptionBody(tenantB.orgId))).json().data;
    const payB = (
      await root.post('/api/auth/payments', {
        organizationId: tenantB.orgId,
        amountPaise: 100,
        subscriptionId: subB.id,
      })
    ).json().data;
    const foreign = await root.put(`/api/auth/subscriptions/${subA.id}`, { paymentId: payB.id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(messages.billing.paymentNotFound);
    const subB2 = (await root.post('/api/auth/subscriptions', subscriptionBody(tenantB.orgId))).json().data;
    const elsewhere = await root.put(`/api/auth/subscriptions/${subB2.id}`, { paymentId: payB.id });
    expect(elsewhere.statusCode).toBe(409);
    const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subB2.id));
    expect(row!.paymentId).toBeNull();
  });
});

describe('tenancy and permissions', () => {
  it("a tenant admin reads their own subscriptions and payments; another organization's answer 404", async () => {
    const subB = (await root.post('/api/auth/subscriptions', subscriptionBody(tenantB.orgId))).json().data;
    const payB = (
      await root.post('/api/auth/payments', { organizationId: tenantB.orgId, amountPaise: 500 })
    ).json().data;
    const a = tenantA.session;
    expect((await a.get(`/api/auth/subscriptions/${subB.id}`)).statusCode).toBe(404);
    expect((await a.get(`/api/auth/payments/${payB.id}`)).statusCode).toBe(404);
    expect((await a.get(`/api/auth/subscriptions?organizationId=${tenantB.orgId}`)).statusCode).toBe(404);
    expect((await a.get(`/api/auth/payments?organizationId=${tenantB.orgId}`)).statusCode).toBe(404);

    const own = await a.get('/api/auth/subscriptions');
    expect(own.statusCode).toBe(200);
    expect(own.json().data.length).toBeGreaterThan(0);
    expect(own.json().data.every((s: { organizationId: string }) => s.organizationId === tenantA.orgId)).toBe(
      true,
    );
    const ownPayments = await a.get('/api/auth/payments?pageSize=100');
    expect(
      ownPayments.json().data.every((p: { organizationId: string }) => p.organizationId === tenantA.orgId),
    ).toBe(true);
    expect((await tenantB.session.get(`/api/auth/subscriptions/${subB.id}`)).statusCode).toBe(200);
  });

  it('a tenant admin cannot grant itself a subscription or record a payment (403), nor update one (403)', async () => {
    const before = await countRows(ctx);
    const a = tenantA.session;
    const sub = await a.post('/api/auth/subscriptions', subscriptionBody(tenantA.orgId));
    expect(sub.statusCode).toBe(403);
    expect(sub.json().message).toBe(messages.billing.platformOnly);
    const pay = await a.post('/api/auth/payments', { organizationId: tenantA.orgId, amountPaise: 100 });
    expect(pay.statusCode).toBe(403);
    const anySub = (await a.get('/api/auth/subscriptions')).json().data[0];
    const put = await a.put(`/api/auth/subscriptions/${anySub.id}`, { status: 'CANCELLED' });
    expect(put.statusCode).toBe(403);
    expect(await countRows(ctx)).toEqual(before);
  });

  it('a role without Subscription Management READ gets 403 on the lists', async () => {
    const s = await userWithGrants(ctx, tenantA.orgId, { dashboard: ['READ'] });
    expect((await s.get('/api/auth/subscriptions')).statusCode).toBe(403);
    expect((await s.get('/api/auth/payments')).statusCode).toBe(403);
    expect((await s.get('/api/auth/credits')).statusCode).toBe(403);
  });

  it('super_admin may cancel a subscription; the change is in the activity feed', async () => {
    const sub = (await root.post('/api/auth/subscriptions', subscriptionBody(tenantA.orgId))).json().data;
    const res = await root.put(`/api/auth/subscriptions/${sub.id}`, { status: 'CANCELLED' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('CANCELLED');
    const [entry] = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityId, sub.id), eq(activityEntries.action, 'updated')));
    expect(entry!.message).toContain('CANCELLED');
    expect((await root.put(`/api/auth/subscriptions/${randomUUID()}`, { status: 'ACTIVE' })).statusCode).toBe(
      404,
    );
  });
});
