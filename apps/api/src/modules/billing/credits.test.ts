import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { createTestApp, signIn, type Session, type TestContext } from '../../../test/harness.js';
import { apiKeys, creditLedger } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/tokens.js';
import { addSubscription } from '../../../test/fixtures.js';
import { countRows, tenantAdmin, userWithGrants } from './test-helpers.js';
import { insertLedgerEntries } from './ledger.repo.js';

let ctx: TestContext;
let root: Session;
let tenant: { orgId: string; session: Session };
let other: { orgId: string; session: Session };
let key: string;
beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  tenant = await tenantAdmin(ctx, 'Interviews Inc');
  other = await tenantAdmin(ctx, 'Elsewhere Ltd');
  const res = await tenant.session.post('/api/auth/api-keys', { name: 'Interview bot' });
  key = res.json().data.key;
});
afterAll(() => ctx.close());

const use = (apiKey: string | null, body: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/credits/use',
    payload: body as Record<string, unknown>,
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
  });

async function grant(orgId: string, credits: number) {
  await insertLedgerEntries(ctx.database.db, [
    { organizationId: orgId, delta: credits, reason: 'adjustment' },
  ]);
}

async function ledgerBalance(orgId: string) {
  const rows = await ctx.database.db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.organizationId, orgId));
  return rows.reduce((sum, r) => sum + r.delta, 0);
}

describe('API keys', () => {
  it('shows the key once, stores only its hash, lists and revokes it', async () => {
    const created = await tenant.session.post('/api/auth/api-keys', { name: 'Second key' });
    expect(created.statusCode).toBe(201);
    const data = created.json().data;
    expect(data.key).toMatch(/^icp_[A-Za-z0-9_-]{43}$/);
    expect(data.prefix).toBe(data.key.slice(0, 12));
    const [row] = await ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, data.id));
    expect(row!.keyHash).toBe(sha256Hex(data.key));
    expect(JSON.stringify(row)).not.toContain(data.key);

    const list = await tenant.session.get('/api/auth/api-keys');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((k: { id: string }) => k.id)).toContain(data.id);
    expect(JSON.stringify(list.json())).not.toContain(data.key);

    await grant(tenant.orgId, 1);
    expect((await use(data.key, { credits: 1, reference: 'before-revoke' })).statusCode).toBe(200);
    const revoked = await tenant.session.delete(`/api/auth/api-keys/${data.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.revokedAt).not.toBeNull();
    const refused = await use(data.key, { credits: 1, reference: 'after-revoke' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(messages.billing.apiKeyInvalid);
  });

  it("another organization's key answers 404 to revoke; a reader cannot create keys (403)", async () => {
    const otherKey = (await other.session.post('/api/auth/api-keys', { name: 'Theirs' })).json().data;
    expect((await tenant.session.delete(`/api/auth/api-keys/${otherKey.id}`)).statusCode).toBe(404);
    expect((await tenant.session.get(`/api/auth/api-keys?organizationId=${other.orgId}`)).statusCode).toBe(
      404,
    );
    const reader = await userWithGrants(ctx, tenant.orgId, { subscriptions: ['READ'] });
    expect((await reader.post('/api/auth/api-keys', { name: 'x' })).statusCode).toBe(403);
    expect((await reader.get('/api/auth/api-keys')).statusCode).toBe(200);
  });

  it('refuses a missing or unknown key (401)', async () => {
    expect((await use(null, { credits: 1, reference: 'x' })).statusCode).toBe(401);
    expect((await use('icp_not-a-real-key', { credits: 1, reference: 'x' })).statusCode).toBe(401);
  });
});

describe('POST /api/v1/credits/use', () => {
  it('debits the ledger and answers the balance; GET /credits shows it', async () => {
    const start = await ledgerBalance(tenant.orgId);
    await grant(tenant.orgId, 5);
    const res = await use(key, { credits: 2, reference: 'interview-1' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      debited: 2,
      reference: 'interview-1',
      balance: start + 3,
      replayed: false,
    });
    const summary = (await tenant.session.get('/api/auth/credits')).json().data;
    expect(summary.balance).toBe(start + 3);
    expect(summary.entries[0]).toMatchObject({ delta: -2, reason: 'usage', reference: 'interview-1' });
  });

  it('refuses to overdraw (402) and writes no row', async () => {
    const balance = await ledgerBalance(tenant.orgId);
    const before = await countRows(ctx);
    const res = await use(key, { credits: balance + 1, reference: 'too-much' });
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe(messages.payment.insufficientCredits);
    expect(await countRows(ctx)).toEqual(before);
    expect(await ledgerBalance(tenant.orgId)).toBe(balance);
  });

  it('debits a reference once; the same reference with other credits is 422', async () => {
    await grant(tenant.orgId, 3);
    const balance = await ledgerBalance(tenant.orgId);
    const first = await use(key, { credits: 1, reference: 'retry-me' });
    const second = await use(key, { credits: 1, reference: 'retry-me' });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toMatchObject({ entryId: first.json().data.entryId, replayed: true });
    expect(await ledgerBalance(tenant.orgId)).toBe(balance - 1);
    const mismatch = await use(key, { credits: 2, reference: 'retry-me' });
    expect(mismatch.statusCode).toBe(422);
    expect(await ledgerBalance(tenant.orgId)).toBe(balance - 1);
  });

  it('concurrent uses cannot overdraw: 30 uses of 1 credit against a balance of 10', async () => {
    // Bring the balance to exactly 10.
    const current = await ledgerBalance(tenant.orgId);
    await grant(tenant.orgId, 10 - current);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => use(key, { credits: 1, reference: `burst-${i}` })),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 402);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(20);
    expect(await ledgerBalance(tenant.orgId)).toBe(0);
    const usage = await ctx.database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, tenant.orgId), eq(creditLedger.reason, 'usage')));
    expect(usage.filter((u) => u.reference?.startsWith('burst-'))).toHaveLength(10);
  });

  it('the same reference sent 10 times concurrently debits once', async () => {
    await grant(tenant.orgId, 4);
    const balance = await ledgerBalance(tenant.orgId);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => use(key, { credits: 4, reference: 'twin' })),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(results.filter((r) => !r.json().data.replayed)).toHaveLength(1);
    expect(await ledgerBalance(tenant.orgId)).toBe(balance - 4);
  });
});

describe('GET /api/auth/credits', () => {
  it('answers the subscription running now as current and those bought to follow it as upcoming', async () => {
    const org = await tenantAdmin(ctx, 'Renewals Ltd');
    const day = 86_400_000;
    const at = (days: number) => new Date(Date.now() + days * day);
    await addSubscription(ctx, org.orgId, { validFrom: at(-40), validUntil: at(-10), credits: 5 });
    const running = await addSubscription(ctx, org.orgId, {
      validFrom: at(-10),
      validUntil: at(20),
      credits: 100,
    });
    const next = await addSubscription(ctx, org.orgId, {
      validFrom: at(20),
      validUntil: at(50),
      credits: 40,
    });
    const after = await addSubscription(ctx, org.orgId, {
      validFrom: at(50),
      validUntil: at(80),
      credits: 10,
    });
    await addSubscription(ctx, org.orgId, { validFrom: at(20), validUntil: at(50), status: 'CANCELLED' });

    const data = (await org.session.get('/api/auth/credits')).json().data;
    expect(data.subscription).toMatchObject({ id: running, totalInterviewCredits: 100 });
    expect(data.upcoming.map((s: { id: string }) => s.id)).toEqual([next, after]);

    const none = await tenantAdmin(ctx, 'Nothing Yet Ltd');
    expect((await none.session.get('/api/auth/credits')).json().data).toMatchObject({
      subscription: null,
      upcoming: [],
    });
  });

  it('is confined to the own organization (another → 404); super_admin may ask for any', async () => {
    expect((await tenant.session.get(`/api/auth/credits?organizationId=${other.orgId}`)).statusCode).toBe(
      404,
    );
    const asRoot = await root.get(`/api/auth/credits?organizationId=${tenant.orgId}`);
    expect(asRoot.statusCode).toBe(200);
    expect(asRoot.json().data.organizationId).toBe(tenant.orgId);
    expect(asRoot.json().data.balance).toBe(await ledgerBalance(tenant.orgId));
    const ledger = await tenant.session.get('/api/auth/credits/ledger?pageSize=5');
    expect(ledger.json().meta).toMatchObject({ page: 1, pageSize: 5 });
    expect(ledger.json().data).toHaveLength(5);
  });
});
