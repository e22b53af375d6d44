import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '@portal/shared';
import { buildApp } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
import { dataVersions, rolePermissions, roles, users } from '../src/db/schema/index.js';
import { loadEnv } from '../src/env.js';
import { createPasswordHasher } from '../src/lib/passwords.js';
import {
  ADMIN_EMAIL,
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  roleIdByName,
  Session,
  signIn,
  STRONG_PASSWORD,
  TEST_HASH_COST,
  type TestContext,
} from './harness.js';
import { addSubscription, createRole } from './fixtures.js';
import { createPostgresDatabase, prepareTestDatabase, usePostgres } from './test-database.js';

// Every API process caches who is who per `data_versions.identity` version (docs/decisions/007): these
// tests warm the caches, change the data (through the API and behind its back, in SQL), and expect
// the very next answer to show the change.

let ctx: TestContext;
let root: Session;
let orgA: string;
let adminRole: string;

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  orgA = await createOrganizationDirect(ctx, 'Cache Org');
  adminRole = await roleIdByName(ctx);
});
afterAll(() => ctx.close());

async function total(session: Session, query: string): Promise<number> {
  const res = await session.get(`/api/auth/users?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().meta.total as number;
}

async function identityVersion(): Promise<number> {
  const [row] = await ctx.database.db
    .select({ version: dataVersions.version })
    .from(dataVersions)
    .where(eq(dataVersions.name, 'identity'));
  return Number(row!.version);
}

describe('list totals after a change', () => {
  it('count users added, deactivated, edited or given another role, the next time the list is read', async () => {
    const query = `role=admin&organizationId=${orgA}`;
    expect(await total(root, query)).toBe(0);
    await createUserDirect(ctx, { email: 'c1@cache.test', roleId: adminRole, organizationId: orgA });
    expect(await total(root, query)).toBe(1);
    expect(await total(root, query)).toBe(1);

    const invited = await root.post('/api/auth/users/as/admin', {
      username: 'cache2',
      email: 'c2@cache.test',
      mobileNo: '9876543210',
      client: 'cache hiring',
      organizationId: orgA,
      roleId: adminRole,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(await total(root, query)).toBe(2);
    expect(await total(root, `${query}&status=active`)).toBe(2);

    const deactivated = await root.put(`/api/auth/users/${invited.json().data.id}/deactivate`);
    expect(deactivated.statusCode).toBe(200);
    expect(await total(root, `${query}&status=active`)).toBe(1);
    expect(await total(root, `${query}&status=inactive`)).toBe(1);

    // Behind the API's back: a new full name is found by the search at once.
    expect(await total(root, 'search=zanzibar')).toBe(0);
    await ctx.database.db
      .update(users)
      .set({ fullName: 'Zanzibar Quartz' })
      .where(eq(users.email, 'c1@cache.test'));
    expect(await total(root, 'search=zanzibar')).toBe(1);

    const viewer = await createRole(ctx, orgA, 'Cache Viewer', { dashboard: ['READ'] });
    expect(await total(root, 'role=cache%20viewer')).toBe(0);
    await ctx.database.db.update(users).set({ roleId: viewer }).where(eq(users.email, 'c1@cache.test'));
    expect(await total(root, 'role=cache%20viewer')).toBe(1);
    expect(await total(root, query)).toBe(1);
  });

  it('follow a role renamed after its name was used as a filter', async () => {
    const role = await createRole(ctx, orgA, 'Cache Auditor', { dashboard: ['READ'] });
    await createUserDirect(ctx, { email: 'aud@cache.test', roleId: role, organizationId: orgA });
    expect(await total(root, 'role=cache%20auditor')).toBe(1);
    await ctx.database.db.update(roles).set({ name: 'Cache Inspector' }).where(eq(roles.id, role));
    expect(await total(root, 'role=cache%20auditor')).toBe(0);
    expect(await total(root, 'role=cache%20inspector')).toBe(1);
  });

  it('show a subscription bought or ended after the list was read', async () => {
    const org = await createOrganizationDirect(ctx, 'Cache Sub Org');
    await createUserDirect(ctx, { email: 'sub@cache.test', roleId: adminRole, organizationId: org });
    const read = async () =>
      (await root.get(`/api/auth/users?organizationId=${org}`)).json().data[0].isSubscription as boolean;
    expect(await read()).toBe(false);
    const subscription = await addSubscription(ctx, org);
    expect(await read()).toBe(true);
    await ctx.database.db.execute(
      sql`update subscriptions set status = 'CANCELLED' where id = ${subscription}`,
    );
    expect(await read()).toBe(false);
  });
});

describe('access after a change', () => {
  it('applies a permission removed or granted, and a deactivation, on the next request', async () => {
    const role = await createRole(ctx, orgA, 'Cache Reader', { users: ['READ'] });
    await createUserDirect(ctx, { email: 'reader@cache.test', roleId: role, organizationId: orgA });
    const reader = await signIn(ctx.app, 'reader@cache.test', STRONG_PASSWORD);
    expect((await reader.get('/api/auth/users')).statusCode).toBe(200);
    expect((await reader.get('/api/auth/users')).statusCode).toBe(200);

    await ctx.database.db.delete(rolePermissions).where(eq(rolePermissions.roleId, role));
    expect((await reader.get('/api/auth/users')).statusCode).toBe(403);

    await ctx.database.db
      .insert(rolePermissions)
      .values({ roleId: role, featureId: FEATURES.users.id, scopes: ['READ'] });
    expect((await reader.get('/api/auth/users')).statusCode).toBe(200);

    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.email, 'reader@cache.test'));
    expect((await reader.get('/api/auth/users')).statusCode).toBe(401);
  });

  it('moves a user to another role at once (the answer of /me and the permission check)', async () => {
    const narrow = await createRole(ctx, orgA, 'Cache Narrow', { dashboard: ['READ'] });
    await createUserDirect(ctx, { email: 'mover@cache.test', roleId: adminRole, organizationId: orgA });
    const mover = await signIn(ctx.app, 'mover@cache.test', STRONG_PASSWORD);
    expect((await mover.get('/api/auth/users')).statusCode).toBe(200);
    await ctx.database.db.update(users).set({ roleId: narrow }).where(eq(users.email, 'mover@cache.test'));
    expect((await mover.get('/api/auth/users')).statusCode).toBe(403);
    const me = await mover.get('/api/auth/auth-session/me');
    expect(me.json().data.role.name).toBe('Cache Narrow');
  });
});

describe('the identity version', () => {
  it('moves once per committed transaction, and not for a rolled-back one or an unrelated column', async () => {
    const before = await identityVersion();
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await tx.insert(users).values([
          { email: 'rb1@cache.test', username: 'rb1', roleId: adminRole, organizationId: orgA },
          { email: 'rb2@cache.test', username: 'rb2', roleId: adminRole, organizationId: orgA },
        ]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await identityVersion()).toBe(before);

    await ctx.database.db.transaction(async (tx) => {
      await tx.insert(users).values([
        { email: 'v1@cache.test', username: 'v1', roleId: adminRole, organizationId: orgA },
        { email: 'v2@cache.test', username: 'v2', roleId: adminRole, organizationId: orgA },
      ]);
      await tx.update(users).set({ fullName: 'Version Two' }).where(eq(users.email, 'v2@cache.test'));
    });
    expect(await identityVersion()).toBe(before + 1);

    // A failed sign-in counts in rate_limit_buckets: not something the caches hold.
    const failed = await new Session(ctx.app).login('v1@cache.test', 'Wrong-Passw0rd!');
    expect(failed.statusCode).toBe(401);
    expect(await identityVersion()).toBe(before + 1);
  });
  it('caches nothing while its row is missing: answers still follow every change', async () => {
    const before = await identityVersion();
    const query = `organizationId=${orgA}&status=active`;
    const start = await total(root, query);
    await ctx.database.db.delete(dataVersions).where(eq(dataVersions.name, 'identity'));
    try {
      expect(await total(root, query)).toBe(start);
      await createUserDirect(ctx, { email: 'norow@cache.test', roleId: adminRole, organizationId: orgA });
      expect(await total(root, query)).toBe(start + 1);
      await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.email, 'norow@cache.test'));
      expect(await total(root, query)).toBe(start);
    } finally {
      // Back above every version seen, so no snapshot of an old version is taken for current.
      await ctx.database.db.insert(dataVersions).values({ name: 'identity', version: before + 1_000 });
    }
    expect(await total(root, query)).toBe(start);
  });
});

// Two API processes on one PostgreSQL: each keeps its own caches and checks them against the version
// in every statement, so a change made through one is answered by the other at once.
describe.runIf(usePostgres)('two API processes on one database', () => {
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-1234',
  });
  const closers: (() => Promise<void>)[] = [];

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('answers a change made through the other process on the next request', async () => {
    const scratch = await createPostgresDatabase();
    closers.push(scratch.drop);
    const open = async (prepare = false) => {
      const database = await openDatabase({ databaseUrl: scratch.url });
      if (prepare) await prepareTestDatabase(database);
      const app = await buildApp({ env, database, hashCost: TEST_HASH_COST, logger: false });
      closers.push(async () => {
        await app.close();
        await database.close();
      });
      return { database, app };
    };
    const a = await open(true);
    const b = await open();
    const rootA = await signIn(a.app);
    const rootB = await signIn(b.app);
    const [platformRow] = await a.database.db
      .select({ organizationId: users.organizationId })
      .from(users)
      .where(eq(users.email, ADMIN_EMAIL));
    const [adminRow] = await a.database.db
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.name, 'admin'));

    const count = async (session: Session) =>
      (await session.get('/api/auth/users?role=admin')).json().meta.total as number;
    expect(await count(rootA)).toBe(0);
    expect(await count(rootB)).toBe(0);

    const created = await rootA.post('/api/auth/users/as/admin', {
      username: 'twoproc',
      email: 'twoproc@cache.test',
      mobileNo: '9876543210',
      client: 'Two Process Org',
      organizationId: platformRow!.organizationId,
      roleId: adminRow!.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await count(rootB)).toBe(1);

    // A session signed in on B, its user deactivated through A: B refuses it on the next request.
    await a.database.db
      .update(users)
      .set({ passwordHash: await createPasswordHasher(TEST_HASH_COST).hash(STRONG_PASSWORD) })
      .where(eq(users.email, 'twoproc@cache.test'));
    const member = await signIn(b.app, 'twoproc@cache.test', STRONG_PASSWORD);
    expect((await member.get('/api/auth/auth-session/me')).statusCode).toBe(200);
    const deactivated = await rootA.put(`/api/auth/users/${created.json().data.id}/deactivate`);
    expect(deactivated.statusCode).toBe(200);
    expect((await member.get('/api/auth/auth-session/me')).statusCode).toBe(401);
    expect(await count(rootB)).toBe(1);
    expect((await rootB.get('/api/auth/users?role=admin&status=active')).json().meta.total).toBe(0);
  });
});
