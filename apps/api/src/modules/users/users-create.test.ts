import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { activityEntries, emailOutbox, oneTimeTokens, organizations, users } from '../../db/schema/index.js';
import {
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  type TestContext,
} from '../../../test/harness.js';

let ctx: TestContext;
let adminRoleId: string;
beforeAll(async () => {
  ctx = await createTestApp();
  adminRoleId = await roleIdByName(ctx);
});
afterAll(() => ctx.close());

const body = (over: Record<string, unknown> = {}) => ({
  username: `user.${randomUUID().slice(0, 8)}`,
  email: `${randomUUID().slice(0, 8)}@acme.test`,
  mobileNo: '9876543210',
  client: 'Acme Hiring',
  organizationId: randomUUID(),
  roleId: adminRoleId,
  isSubscription: false,
  ...over,
});

async function count(table: typeof users | typeof organizations | typeof emailOutbox) {
  const [row] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return row!.n;
}

describe('POST /api/auth/users/as/admin', () => {
  it('creates the organization and the user, and emails a 72 h invite link instead of a password', async () => {
    const s = await signIn(ctx.app);
    const b = body({ password: 'Ignored-Passw0rd!', email: 'New.Admin@Acme.test' });
    const res = await s.post('/api/auth/users/as/admin', b);
    expect(res.statusCode).toBe(201);
    const user = res.json().data;
    expect(user).toMatchObject({
      username: b.username,
      email: 'new.admin@acme.test',
      organizationId: b.organizationId,
      client: 'Acme Hiring',
      isActive: true,
      enabled: true,
      inviteStatus: 'pending',
      role: { name: 'admin' },
    });
    const [org] = await ctx.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, b.organizationId));
    expect(org?.name).toBe('Acme Hiring');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.passwordHash).toBeNull();
    const [token] = await ctx.database.db
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.userId, user.id));
    expect(token?.purpose).toBe('invite');
    const hours = (token!.expiresAt.getTime() - token!.createdAt.getTime()) / 3_600_000;
    expect(Math.round(hours)).toBe(72);
    const [mail] = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, user.email));
    expect(mail?.textBody).toMatch(/\/auth\/reset-password\?token=/);
    const acts = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(eq(activityEntries.entityId, user.id));
    expect(acts).toHaveLength(1);
    // The invite link sets the password; the new admin can then sign in.
    const link = /token=([^\s]+)/.exec(mail!.textBody)![1]!;
    const reset = await s.post('/api/auth/reset-password', {
      token: decodeURIComponent(link),
      password: STRONG_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);
    await signIn(ctx.app, b.username, STRONG_PASSWORD);
  });

  it('answers 400 with the exact messages when organizationId or roleId is missing, creating nothing', async () => {
    const s = await signIn(ctx.app);
    const before = await count(users);
    const { organizationId: _o, ...noOrg } = body();
    let res = await s.post('/api/auth/users/as/admin', noOrg);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('organizationId is required');
    const { roleId: _r, ...noRole } = body();
    res = await s.post('/api/auth/users/as/admin', noRole);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('roleId is required');
    expect(await count(users)).toBe(before);
  });

  it('answers 409 for a duplicate username or email in any case', async () => {
    const s = await signIn(ctx.app);
    const first = body();
    expect((await s.post('/api/auth/users/as/admin', first)).statusCode).toBe(201);
    const res = await s.post('/api/auth/users/as/admin', body({ email: first.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.users.duplicate);
    const res2 = await s.post('/api/auth/users/as/admin', body({ username: first.username.toUpperCase() }));
    expect(res2.statusCode).toBe(409);
  });

  it('lets an organization admin create only in their own organization', async () => {
    const orgA = await createOrganizationDirect(ctx, 'Org A');
    const orgB = await createOrganizationDirect(ctx, 'Org B');
    await createUserDirect(ctx, { email: 'a-admin@a.test', roleId: adminRoleId, organizationId: orgA });
    const s = await signIn(ctx.app, 'a-admin@a.test', STRONG_PASSWORD);
    expect((await s.post('/api/auth/users/as/admin', body({ organizationId: orgA }))).statusCode).toBe(201);
    const orgsBefore = await count(organizations);
    expect((await s.post('/api/auth/users/as/admin', body({ organizationId: orgB }))).statusCode).toBe(404);
    expect((await s.post('/api/auth/users/as/admin', body())).statusCode).toBe(403);
    expect(await count(organizations)).toBe(orgsBefore);
  });
});
