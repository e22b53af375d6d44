import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER, INTERVIEW_BOT_PRODUCT, messages, onboardingBodySchema } from '@portal/shared';
import {
  createTestApp,
  createUserDirect,
  enrolTwoFactor,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import {
  creditLedger,
  emailOutbox,
  idempotencyKeys,
  payments,
  subscriptions,
  users,
} from '../../db/schema/index.js';
import { hashRequest } from './idempotency-key.js';
import { ONBOARDING_ROUTE } from './onboarding.service.js';
import { countRows, injectFault, onboardingBody, tenantAdmin, userWithGrants } from './test-helpers.js';

let ctx: TestContext;
let root: Session;
beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
});
afterAll(() => ctx.close());

const onboard = (session: Session, body: unknown, key: string | null) =>
  session.post('/api/auth/onboarding', body, { headers: key ? { [IDEMPOTENCY_HEADER]: key } : {} });

describe('POST /api/auth/onboarding', () => {
  it('plain create: organization, admin user with an invite link, ACTIVE subscription and ledger grants', async () => {
    const body = onboardingBody({ demoTrials: 3 });
    const before = await countRows(ctx);
    const res = await onboard(root, body, 'plain-1');
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data.user).toMatchObject({ email: body.user.email, organizationId: body.user.organizationId });
    expect(data.payment).toBeNull();
    expect(data.creditBalance).toBe(103);
    const sub = data.subscription;
    expect(sub).toMatchObject({
      organizationId: body.user.organizationId,
      paymentId: null,
      subscribedProducts: [INTERVIEW_BOT_PRODUCT],
      billingCycle: 'MONTHLY',
      totalInterviewCredits: 100,
      interviewCreditsPricePaise: 10_000,
      totalPositionCredits: 0,
      positionCreditsPricePaise: 0,
      taxRateBp: 1800,
      taxInclusive: true,
      subTotalPaise: 1_000_000,
      totalAmountPaise: 1_000_000,
      taxAmountPaise: 180_000,
      grandTotalAmountPaise: 1_180_000,
      discountPercentage: 0,
      discountAmountPaise: 0,
      discountCode: '',
      status: 'ACTIVE',
      subscription: false,
      demoTrials: 3,
    });
    const from = new Date(sub.validFrom);
    const until = new Date(sub.validUntil);
    expect(Math.abs(from.getTime() - Date.now())).toBeLessThan(60_000);
    expect(until.getUTCMonth()).toBe((from.getUTCMonth() + 1) % 12);

    const after = await countRows(ctx);
    expect(after.organizations - before.organizations).toBe(1);
    expect(after.users - before.users).toBe(1);
    expect(after.subscriptions - before.subscriptions).toBe(1);
    expect(after.payments - before.payments).toBe(0);
    expect(after.credit_ledger - before.credit_ledger).toBe(2);

    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, data.user.id));
    expect(user!.passwordHash).toBeNull();
    await ctx.app.deps.jobs.settled();
    const [mail] = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, body.user.email));
    expect(mail!.textBody).toMatch(/\/auth\/reset-password\?token=/);
    expect(mail!.status).toBe('logged');
    const grants = await ctx.database.db
      .select({ reason: creditLedger.reason, delta: creditLedger.delta })
      .from(creditLedger)
      .where(eq(creditLedger.organizationId, body.user.organizationId));
    expect(grants.sort((a, b) => a.delta - b.delta)).toEqual([
      { reason: 'demo_trial', delta: 3 },
      { reason: 'subscription', delta: 100 },
    ]);

    // The new admin is listed as subscribed.
    const me = await root.get(`/api/auth/users/${data.user.id}`);
    expect(me.json().data.isSubscription).toBe(true);
  });

  it('manual payment: records the payment (CREATED, method upper-cased, id trimmed) and links it both ways', async () => {
    const body = onboardingBody({ withPayment: true });
    const res = await onboard(root, body, 'manual-1');
    expect(res.statusCode).toBe(201);
    const { subscription, payment } = res.json().data;
    const transactionId = body.payment!.transactionId.trim();
    expect(subscription.subscription).toBe(true);
    expect(subscription.paymentId).toBe(payment.id);
    expect(payment).toMatchObject({
      organizationId: body.user.organizationId,
      subscriptionId: subscription.id,
      amountPaise: 1_180_000,
      paymentStatus: 'CREATED',
      paymentMethod: 'BANK_TRANSFER',
      paymentCapture: true,
      manualReferenceNumber: transactionId,
      paymentProofReference: transactionId,
      receivedBy: 'admin',
      paymentNotes: messages.payment.defaultNotes,
      paymentDate: '2025-01-15T00:00:00.000Z',
      refundAmountPaise: 0,
      providerPaymentId: null,
    });
    const [row] = await ctx.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscription.id));
    expect(row!.paymentId).toBe(payment.id);
  });

  it('keeps remarks as the payment notes', async () => {
    const body = onboardingBody({ withPayment: true });
    body.payment!.remarks = 'Paid by NEFT';
    body.payment!.paymentMethod = 'upi';
    const res = await onboard(root, body, 'manual-remarks');
    expect(res.json().data.payment).toMatchObject({ paymentNotes: 'Paid by NEFT', paymentMethod: 'UPI' });
  });

  it('needs an Idempotency-Key and creates nothing without one', async () => {
    const before = await countRows(ctx);
    const res = await onboard(root, onboardingBody(), null);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.idempotency.keyRequired);
    expect(await countRows(ctx)).toEqual(before);
  });

  it('refuses amounts that disagree with credits, price and tax, and creates nothing', async () => {
    const body = onboardingBody({ withPayment: true });
    body.subscription.grandTotalAmountPaise += 100;
    const before = await countRows(ctx);
    const res = await onboard(root, body, 'mismatch-1');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.subscription.amountsMismatch);
    expect(res.json().errors.grandTotalAmountPaise).toBeDefined();
    expect(await countRows(ctx)).toEqual(before);
  });

  it('answers a retry with the first answer and creates nothing twice; another body with the key is 422', async () => {
    const body = onboardingBody({ withPayment: true });
    const first = await onboard(root, body, 'retry-1');
    expect(first.statusCode).toBe(201);
    const afterFirst = await countRows(ctx);

    const again = await onboard(root, body, 'retry-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countRows(ctx)).toEqual(afterFirst);

    const other = onboardingBody({ withPayment: true });
    const reused = await onboard(root, other, 'retry-1');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe(messages.idempotency.keyReused);
    expect(await countRows(ctx)).toEqual(afterFirst);
  });

  it('keys are per user: another super admin reusing a key runs its own request', async () => {
    const first = await onboard(root, onboardingBody(), 'per-user');
    expect(first.statusCode).toBe(201);
    const email = `second-root-${Date.now()}@portal.test`;
    const [platform] = await ctx.database.db
      .select({ id: users.organizationId })
      .from(users)
      .where(eq(users.id, root.userId));
    await createUserDirect(ctx, {
      email,
      roleId: await roleIdByName(ctx, 'super_admin'),
      organizationId: platform!.id,
    });
    const other = await signIn(ctx.app, email, STRONG_PASSWORD);
    // Super administrators sign in with a second factor: this one sets it up first.
    await enrolTwoFactor(other);
    const second = await onboard(other, onboardingBody(), 'per-user');
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().data.user.id).not.toBe(first.json().data.user.id);
    const rows = await ctx.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, 'per-user'));
    expect(rows.map((r) => r.userId).sort()).toEqual([root.userId, other.userId].sort());
    expect(rows.every((r) => r.status === 'completed' && r.responseStatus === 201)).toBe(true);
  });

  it('100 concurrent requests with one key create exactly one organization, user, subscription and payment', async () => {
    const body = onboardingBody({ withPayment: true });
    const before = await countRows(ctx);
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => onboard(root, body, 'concurrent-100')),
    );
    const statuses = responses.map((r) => r.statusCode);
    const created = responses.filter((r) => r.statusCode === 201 && !r.headers['idempotent-replayed']);
    const replayed = responses.filter((r) => r.headers['idempotent-replayed'] === 'true');
    const busy = responses.filter((r) => r.statusCode === 409);
    expect(created).toHaveLength(1);
    expect(replayed.length + busy.length).toBe(99);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const r of busy) expect(r.json().message).toBe(messages.idempotency.inProgress);
    for (const r of replayed) expect(r.json()).toEqual(created[0]!.json());

    const after = await countRows(ctx);
    expect(after.organizations - before.organizations).toBe(1);
    expect(after.users - before.users).toBe(1);
    expect(after.subscriptions - before.subscriptions).toBe(1);
    expect(after.payments - before.payments).toBe(1);
    expect(after.credit_ledger - before.credit_ledger).toBe(2);
    // The invitation and the receipt with its tax invoice.
    expect(after.email_outbox - before.email_outbox).toBe(2);
    expect(after.invoices - before.invoices).toBe(1);
    expect(after.idempotency_keys - before.idempotency_keys).toBe(1);
  });

  it('answers 409 while the first request still runs, and takes over a claim abandoned long ago', async () => {
    const body = onboardingBody({ withPayment: true });
    // A first request with this key and body is running: its claim exists, with no answer yet.
    await ctx.database.db.insert(idempotencyKeys).values({
      userId: root.userId,
      key: 'running-1',
      route: ONBOARDING_ROUTE,
      requestHash: hashRequest(ONBOARDING_ROUTE, onboardingBodySchema.parse(body)),
      status: 'in_progress',
      responseBody: { claim: 'the-first-request' },
    });
    const before = await countRows(ctx);
    const busy = await onboard(root, body, 'running-1');
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(messages.idempotency.inProgress);
    expect(await countRows(ctx)).toEqual(before);

    // Ten minutes later the claim counts as abandoned (its request crashed): the retry runs, once.
    await ctx.database.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '10 minutes'` })
      .where(eq(idempotencyKeys.key, 'running-1'));
    const takeover = await onboard(root, body, 'running-1');
    expect(takeover.statusCode).toBe(201);
    expect(takeover.headers['idempotent-replayed']).toBeUndefined();
    const after = await countRows(ctx);
    expect(after.users - before.users).toBe(1);
    expect(after.payments - before.payments).toBe(1);
    expect(after.idempotency_keys).toBe(before.idempotency_keys);
    // The crashed request, were it to finish now, could not store its answer over this one.
    expect((await onboard(root, body, 'running-1')).headers['idempotent-replayed']).toBe('true');
  });

  it('a failed request creates nothing and frees its key: the corrected retry succeeds', async () => {
    const existing = onboardingBody();
    expect((await onboard(root, existing, 'dup-first')).statusCode).toBe(201);
    const body = onboardingBody({ withPayment: true });
    body.user.email = existing.user.email;
    const before = await countRows(ctx);
    const res = await onboard(root, body, 'dup-second');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.users.duplicate);
    expect(await countRows(ctx)).toEqual(before);
  });

  it('refuses a duplicate manual transaction id for an organization that already recorded it', async () => {
    const first = onboardingBody({ withPayment: true });
    expect((await onboard(root, first, 'txn-1')).statusCode).toBe(201);
    const second = onboardingBody({ withPayment: true });
    second.user.organizationId = first.user.organizationId;
    second.user.client = first.user.client;
    second.payment!.transactionId = first.payment!.transactionId;
    const before = await countRows(ctx);
    const res = await onboard(root, second, 'txn-2');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.billing.duplicateTransaction);
    expect(await countRows(ctx)).toEqual(before);
  });

  it('is refused to a tenant admin (403) and to a role without User Management CREATE (403)', async () => {
    const { orgId, session } = await tenantAdmin(ctx, 'Tenant Onboard');
    const limited = await userWithGrants(ctx, orgId, { subscriptions: ['READ', 'CREATE'] });
    const before = await countRows(ctx);
    const body = onboardingBody();
    body.user.organizationId = orgId;
    const asAdmin = await onboard(session, body, 'tenant-1');
    expect(asAdmin.statusCode).toBe(403);
    const asLimited = await onboard(limited, onboardingBody(), 'tenant-2');
    expect(asLimited.statusCode).toBe(403);
    expect(await countRows(ctx)).toEqual(before);
  });
});

describe('onboarding under injected faults', () => {
  // Each step of the transaction, made to fail in turn: the request fails and no row of any step stays.
  const steps: [string, 'INSERT' | 'UPDATE'][] = [
    ['organizations', 'INSERT'],
    ['users', 'INSERT'],
    ['one_time_tokens', 'INSERT'],
    ['email_outbox', 'INSERT'],
    ['activity_entries', 'INSERT'],
    ['subscriptions', 'INSERT'],
    ['payments', 'INSERT'],
    ['subscriptions', 'UPDATE'],
    ['credit_ledger', 'INSERT'],
    ['idempotency_keys', 'UPDATE'],
  ];

  it.each(steps)(
    'a failure at %s %s leaves no partial records and a retry with the same key succeeds',
    async (table, op) => {
      const body = onboardingBody({ withPayment: true });
      const key = `fault-${table}-${op}`;
      const before = await countRows(ctx);
      const restore = await injectFault(ctx, table, op);
      let res;
      try {
        res = await onboard(root, body, key);
      } finally {
        await restore();
      }
      expect(res.statusCode).toBe(500);
      expect(await countRows(ctx)).toEqual(before);
      const [stuck] = await ctx.database.db
        .select()
        .from(idempotencyKeys)
        .where(eq(idempotencyKeys.key, key));
      expect(stuck).toBeUndefined();

      const retry = await onboard(root, body, key);
      expect(retry.statusCode).toBe(201);
      const after = await countRows(ctx);
      expect(after.users - before.users).toBe(1);
      expect(after.subscriptions - before.subscriptions).toBe(1);
      expect(after.payments - before.payments).toBe(1);
      const [pay] = await ctx.database.db
        .select()
        .from(payments)
        .where(eq(payments.organizationId, body.user.organizationId));
      expect(pay!.subscriptionId).toBe(retry.json().data.subscription.id);
    },
  );
});
