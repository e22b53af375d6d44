import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, type User } from '@portal/shared';
import { oneTimeTokens, users } from '../../db/schema/index.js';
import {
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { createRole } from '../../../test/fixtures.js';
import { iterateUserRows, listUserPage, type UserFilter, type UserOrder } from './users.repo.js';

let ctx: TestContext;
let root: Session;
let adminA: Session;
let orgA: string;
let orgB: string;
let adminRoleId: string;
let viewerRole: string;

/** 30 admins in org A (a00…a29), 5 in org B, 4 custom-role members in org A. */
beforeAll(async () => {
  ctx = await createTestApp();
  adminRoleId = await roleIdByName(ctx);
  orgA = await createOrganizationDirect(ctx, 'Org A');
  orgB = await createOrganizationDirect(ctx, 'Org B');
  viewerRole = await createRole(ctx, orgA, 'Viewer', { dashboard: ['READ'] });
  const rows: (typeof users.$inferInsert)[] = [];
  const base = Date.UTC(2025, 0, 1);
  for (let i = 0; i < 30; i++) {
    const k = String(i).padStart(2, '0');
    rows.push({
      organizationId: orgA,
      roleId: adminRoleId,
      username: `a${k}`,
      email: `a${k}@alpha.test`,
      fullName: i === 7 ? 'Priya Sharma' : `Person ${k}`,
      client: i % 3 === 0 ? 'Zeta Corp' : i % 3 === 1 ? 'alpha hiring' : 'Mid_Co 100%',
      mobileNo: '9876543210',
      isActive: i % 4 !== 0,
      passwordHash: 'x',
      createdAt: new Date(base + i * 60_000),
    });
  }
  for (let i = 0; i < 5; i++) {
    rows.push({
      organizationId: orgB,
      roleId: adminRoleId,
      username: `b${i}`,
      email: `b${i}@beta.test`,
      client: 'Beta Ltd',
      passwordHash: 'x',
      createdAt: new Date(base + (100 + i) * 60_000),
    });
  }
  for (let i = 0; i < 4; i++) {
    rows.push({
      organizationId: orgA,
      roleId: viewerRole,
      username: `viewer${i}`,
      email: `viewer${i}@alpha.test`,
      client: 'alpha hiring',
      passwordHash: 'x',
    });
  }
  await ctx.database.db.insert(users).values(rows);
  await createUserDirect(ctx, { email: 'boss@alpha.test', roleId: adminRoleId, organizationId: orgA });
  root = await signIn(ctx.app);
  adminA = await signIn(ctx.app, 'boss@alpha.test', STRONG_PASSWORD);
});
afterAll(() => ctx.close());

async function list(session: Session, query: string) {
  const res = await session.get(`/api/auth/users?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { data: User[]; meta: { page: number; pageSize: number; total: number } };
}

describe('GET /api/auth/users', () => {
  it('pages on the server with meta, 10 by default', async () => {
    const first = await list(root, 'role=admin');
    expect(first.meta).toEqual({ page: 1, pageSize: 10, total: 36 });
    expect(first.data).toHaveLength(10);
    const pages: User[] = [];
    for (let page = 1; page <= 4; page++) pages.push(...(await list(root, `role=admin&page=${page}`)).data);
    expect(pages).toHaveLength(36);
    expect(new Set(pages.map((u) => u.id)).size).toBe(36);
    const big = await list(root, 'role=admin&pageSize=25&page=2');
    expect(big.data).toHaveLength(11);
    expect(big.meta).toEqual({ page: 2, pageSize: 25, total: 36 });
  });

  it('refuses a page size above 100 and an unknown sort (400)', async () => {
    expect((await root.get('/api/auth/users?pageSize=101')).statusCode).toBe(400);
    expect((await root.get('/api/auth/users?sort=passwordHash')).statusCode).toBe(400);
    expect((await root.get('/api/auth/users?status=deleted')).statusCode).toBe(400);
  });

  it('sorts newest first by default, and by each whitelisted column', async () => {
    const byDate = (await list(root, 'role=admin&organizationId=' + orgA + '&pageSize=50')).data;
    const dated = byDate.filter((u) => u.username.startsWith('a'));
    expect(dated[0]!.username).toBe('a29');
    const asc = (await list(root, 'search=%40alpha.test&sort=username&order=asc&pageSize=50')).data;
    const names = asc.map((u) => u.username);
    expect(names).toEqual([...names].sort());
    const desc = (await list(root, 'search=%40alpha.test&sort=email&order=desc&pageSize=50')).data;
    const emails = desc.map((u) => u.email);
    expect(emails).toEqual([...emails].sort().reverse());
    const byClient = (await list(root, `organizationId=${orgA}&sort=client&order=asc&pageSize=50`)).data;
    const clients = byClient.map((u) => (u.client ?? '').toLowerCase());
    expect(clients).toEqual([...clients].sort());
    const byStatus = (await list(root, `organizationId=${orgA}&sort=status&order=asc&pageSize=50`)).data;
    const firstActive = byStatus.findIndex((u) => u.isActive);
    expect(byStatus.slice(firstActive).every((u) => u.isActive)).toBe(true);
    expect(firstActive).toBeGreaterThan(0);
  });

  it('searches username, full name, email and client, case-insensitively', async () => {
    expect((await list(root, 'search=PRIYA')).data.map((u) => u.username)).toEqual(['a07']);
    expect((await list(root, 'search=a07')).meta.total).toBe(1);
    expect((await list(root, 'search=beta.test')).meta.total).toBe(5);
    expect((await list(root, 'search=zeta%20corp')).meta.total).toBe(10);
    // LIKE wildcards are taken literally.
    expect((await list(root, 'search=100%25')).meta.total).toBe(10);
    expect((await list(root, 'search=mid_co')).meta.total).toBe(10);
    expect((await list(root, 'search=mid%25co')).meta.total).toBe(0);
    expect((await list(root, 'search=nobody-here')).data).toEqual([]);
  });

  it('filters by role name or id and by status', async () => {
    expect((await list(root, 'role=ADMIN')).meta.total).toBe(36);
    expect((await list(root, `role=${viewerRole}`)).meta.total).toBe(4);
    expect((await list(root, 'role=Viewer')).meta.total).toBe(4);
    expect((await list(root, 'role=no-such-role')).meta.total).toBe(0);
    const inactive = await list(root, `status=inactive&organizationId=${orgA}&pageSize=50`);
    expect(inactive.meta.total).toBe(8);
    expect(inactive.data.every((u) => !u.isActive && !u.enabled)).toBe(true);
    expect((await list(root, `status=active&role=admin&organizationId=${orgA}`)).meta.total).toBe(23);
  });

  it('shows a tenant admin only their own organization; naming another answers 404', async () => {
    const mine = await list(adminA, 'role=admin&pageSize=100');
    expect(mine.meta.total).toBe(31);
    expect(mine.data.every((u) => u.organizationId === orgA)).toBe(true);
    expect((await list(adminA, 'search=beta.test')).meta.total).toBe(0);
    const foreign = await adminA.get(`/api/auth/users?organizationId=${orgB}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(messages.users.organizationNotFound);
  });

  it('reports the invite state of each user: pending, expired, accepted', async () => {
    const created = await root.post('/api/auth/users/as/admin', {
      username: 'invitee',
      email: 'invitee@alpha.test',
      mobileNo: '9876543210',
      client: 'alpha hiring',
      organizationId: orgA,
      roleId: adminRoleId,
    });
    const id = created.json().data.id as string;
    expect((await list(root, 'search=invitee')).data[0]!.inviteStatus).toBe('pending');
    await ctx.database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.userId, id));
    expect((await list(root, 'search=invitee')).data[0]!.inviteStatus).toBe('expired');
    expect((await list(root, 'search=a01')).data[0]!.inviteStatus).toBe('accepted');
  });

  it('needs User Management READ', async () => {
    await createUserDirect(ctx, { email: 'v@alpha.test', roleId: viewerRole, organizationId: orgA });
    const viewer = await signIn(ctx.app, 'v@alpha.test', STRONG_PASSWORD);
    expect((await viewer.get('/api/auth/users')).statusCode).toBe(403);
  });

  it('lists the holders of every role a name names when two organizations use it', async () => {
    const viewerB = await createRole(ctx, orgB, 'viewer', { dashboard: ['READ'] });
    await createUserDirect(ctx, { email: 'vb@beta.test', roleId: viewerB, organizationId: orgB });
    const both = await list(root, 'role=Viewer&pageSize=50');
    expect(new Set(both.data.map((u) => u.roleId))).toEqual(new Set([viewerRole, viewerB]));
    expect(both.meta.total).toBe(both.data.length);
    expect((await list(root, `role=${viewerB}`)).data.map((u) => u.email)).toEqual(['vb@beta.test']);
  });
});

describe('users repo: list and export iteration agree', () => {
  // Built when the test runs, after beforeAll made the organizations.
  const filters: [string, () => UserFilter][] = [
    ['everyone', () => ({ scope: null })],
    ['org A admins', () => ({ scope: orgA, role: 'admin' })],
    ['search alpha', () => ({ scope: null, search: 'alpha' })],
  ];
  const orders: UserOrder[] = [
    { sort: 'createdAt', order: 'desc' },
    { sort: 'username', order: 'asc' },
    { sort: 'client', order: 'desc' },
    { sort: 'status', order: 'asc' },
    { sort: 'email', order: 'desc' },
  ];
  it.each(filters.flatMap(([name, f]) => orders.map((o) => [name, f, o] as const)))(
    'iterates %s in %o order in small batches exactly as one big page lists them',
    async (_name, makeFilter, order) => {
      const filter = makeFilter();
      const { rows, total } = await listUserPage(ctx.database.db, filter, order, { page: 1, pageSize: 1000 });
      const iterated: string[] = [];
      for await (const batch of iterateUserRows(ctx.database.db, filter, order, 7)) {
        iterated.push(...batch.map((r) => r.user.id));
      }
      expect(iterated).toEqual(rows.map((r) => r.id));
      expect(iterated).toHaveLength(total);
      const [all] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
      if (!filter.search && !filter.role) expect(total).toBe(all!.n);
    },
  );
});
