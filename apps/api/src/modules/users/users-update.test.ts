import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { activityEntries, emailOutbox, oneTimeTokens, sessions, users } from '../../db/schema/index.js';
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

let ctx: TestContext;
let root: Session;
let adminA: Session;
let adminAId: string;
let orgA: string;
let orgB: string;
let adminRoleId: string;
let viewerA: string;
let viewerB: string;

beforeAll(async () => {
  ctx = await createTestApp();
  adminRoleId = await roleIdByName(ctx);
  orgA = await createOrganizationDirect(ctx, 'Org A');
  orgB = await createOrganizationDirect(ctx, 'Org B');
  viewerA = await createRole(ctx, orgA, 'Viewer', { dashboard: ['READ'] });
  viewerB = await createRole(ctx, orgB, 'Viewer', { dashboard: ['READ'] });
  adminAId = await createUserDirect(ctx, { email: 'boss@a.test', roleId: adminRoleId, organizationId: orgA });
  root = await signIn(ctx.app);
  adminA = await signIn(ctx.app, 'boss@a.test', STRONG_PASSWORD);
});
afterAll(() => ctx.close());

let n = 0;
async function member(
  organizationId = orgA,
  roleId = viewerA,
  options: { password?: boolean } = {},
): Promise<{ id: string; email: string; username: string }> {
  n += 1;
  const email = `m${n}.${randomUUID().slice(0, 6)}@example.test`;
  const username = email.split('@')[0]!;
  const id = await createUserDirect(ctx, { email, username, roleId, organizationId });
  if (options.password === false) {
    await ctx.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, id));
  }
  return { id, email, username };
}

async function row(id: string) {
  const [r] = await ctx.database.db.select().from(users).where(eq(users.id, id));
  return r!;
}

async function activityCount(entityId: string) {
  const [r] = await ctx.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(activityEntries)
    .where(eq(activityEntries.entityId, entityId));
  return r!.n;
}

async function liveSessions(userId: string) {
  const [r] = await ctx.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  return r!.n;
}

describe('PUT /api/auth/users/:id', () => {
  it('lets anyone change their own username, full name and mobile number', async () => {
    const me = await member();
    const s = await signIn(ctx.app, me.email, STRONG_PASSWORD);
    const res = await s.put(`/api/auth/users/${me.id}`, {
      username: `${me.username}.new`,
      fullName: 'New Name',
      mobileNo: '9123456789',
      email: me.email.toUpperCase(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      username: `${me.username}.new`,
      fullName: 'New Name',
      mobileNo: '9123456789',
      email: me.email,
    });
    expect(await activityCount(me.id)).toBe(1);
  });

  it('does not let a user without User Management UPDATE change other fields of their own record', async () => {
    const me = await member();
    const s = await signIn(ctx.app, me.email, STRONG_PASSWORD);
    const before = await row(me.id);
    for (const body of [{ client: 'Other Co' }, { roleId: adminRoleId }, { isActive: false }]) {
      const res = await s.put(`/api/auth/users/${me.id}`, body);
      expect(res.statusCode).toBe(403);
    }
    expect(await row(me.id)).toEqual(before);
    expect(await activityCount(me.id)).toBe(0);
  });

  it('refuses an email change with 400 emailLocked, changing nothing', async () => {
    const target = await member();
    const before = await row(target.id);
    const res = await adminA.put(`/api/auth/users/${target.id}`, {
      email: 'changed@example.test',
      username: 'should.not.apply',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.users.emailLocked);
    expect(await row(target.id)).toEqual(before);
  });

  it('lets an admin edit a user of their organization as the edit form sends it', async () => {
    const target = await member(orgA, adminRoleId);
    const res = await adminA.put(`/api/auth/users/${target.id}`, {
      username: `${target.username}-x`,
      email: target.email,
      mobileNo: '9000000001',
      client: 'Renamed Co',
      organizationId: orgA,
      roleId: adminRoleId,
      isSubscription: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ username: `${target.username}-x`, client: 'Renamed Co' });
    expect(await activityCount(target.id)).toBe(1);
  });

  it('applies the field rules of the invite form', async () => {
    const target = await member();
    for (const [body, message] of [
      [{ username: 'no spaces allowed' }, messages.users.invalidUsername],
      [{ mobileNo: '12' }, messages.users.invalidMobile],
      [{ client: '' }, messages.users.companyRequired],
    ] as const) {
      const res = await adminA.put(`/api/auth/users/${target.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('answers 409 for a username already taken (any case)', async () => {
    const a = await member();
    const b = await member();
    const res = await adminA.put(`/api/auth/users/${b.id}`, { username: a.username.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.users.duplicate);
  });

  it('refuses moving a user to another organization', async () => {
    const target = await member();
    const res = await root.put(`/api/auth/users/${target.id}`, { organizationId: orgB });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.users.organizationLocked);
    expect((await row(target.id)).organizationId).toBe(orgA);
  });

  it('changes the role to one visible to the organization; another tenant’s role is 404', async () => {
    const target = await member();
    const ok = await adminA.put(`/api/auth/users/${target.id}`, { roleId: adminRoleId });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ role: { name: 'admin' }, isAdmin: true });
    const foreign = await adminA.put(`/api/auth/users/${target.id}`, { roleId: viewerB });
    expect(foreign.statusCode).toBe(404);
    expect((await row(target.id)).roleId).toBe(adminRoleId);
    const own = await adminA.put(`/api/auth/users/${adminAId}`, { roleId: viewerA });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(messages.users.cannotChangeOwnRole);
  });

  it('deactivates through isActive or enabled, keeping both equal and ending sessions', async () => {
    const target = await member();
    const s = await signIn(ctx.app, target.email, STRONG_PASSWORD);
    const res = await adminA.put(`/api/auth/users/${target.id}`, { enabled: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ isActive: false, enabled: false });
    expect(await liveSessions(target.id)).toBe(0);
    expect((await s.get(`/api/auth/users/${target.id}`)).statusCode).toBe(401);
    const back = await adminA.put(`/api/auth/users/${target.id}`, { isActive: true });
    expect(back.json().data).toMatchObject({ isActive: true, enabled: true });
  });

  it('hides another tenant’s user (404) and needs User Management UPDATE for others (403)', async () => {
    const foreign = await member(orgB, viewerB);
    const before = await row(foreign.id);
    const res = await adminA.put(`/api/auth/users/${foreign.id}`, { mobileNo: '9111111111' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(messages.users.notFound);
    const plain = await member();
    const s = await signIn(ctx.app, plain.email, STRONG_PASSWORD);
    const other = await member();
    expect((await s.put(`/api/auth/users/${other.id}`, { mobileNo: '9111111111' })).statusCode).toBe(403);
    expect(await row(foreign.id)).toEqual(before);
  });
});

describe('PUT /api/auth/users/:id/deactivate and /activate', () => {
  it('deactivates: both flags false, sessions revoked at once, sign-in refused; activate restores', async () => {
    const target = await member(orgA, adminRoleId);
    const s = await signIn(ctx.app, target.email, STRONG_PASSWORD);
    expect(await liveSessions(target.id)).toBe(1);

    const off = await adminA.put(`/api/auth/users/${target.id}/deactivate`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({
      message: messages.users.deactivated,
      data: { isActive: false, enabled: false },
    });
    expect(await liveSessions(target.id)).toBe(0);
    expect((await s.get(`/api/auth/users/${target.id}`)).statusCode).toBe(401);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/auth-session/login',
      payload: { identifier: target.email, password: STRONG_PASSWORD },
    });
    expect(login.statusCode).toBe(401);

    const on = await adminA.put(`/api/auth/users/${target.id}/activate`);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({
      message: messages.users.activated,
      data: { isActive: true, enabled: true },
    });
    await signIn(ctx.app, target.email, STRONG_PASSWORD);
    expect(await activityCount(target.id)).toBe(2);
  });

  it('refuses to let users deactivate themselves', async () => {
    const res = await adminA.put(`/api/auth/users/${adminAId}/deactivate`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(messages.users.cannotDeactivateSelf);
    expect((await row(adminAId)).isActive).toBe(true);
  });

  it('answers 404 for another tenant’s user and changes nothing', async () => {
    const foreign = await member(orgB, viewerB);
    expect((await adminA.put(`/api/auth/users/${foreign.id}/deactivate`)).statusCode).toBe(404);
    expect((await row(foreign.id)).isActive).toBe(true);
    expect((await root.put(`/api/auth/users/${foreign.id}/deactivate`)).statusCode).toBe(200);
    expect((await row(foreign.id)).isActive).toBe(false);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await adminA.put(`/api/auth/users/${randomUUID()}/activate`)).statusCode).toBe(404);
    expect((await adminA.put('/api/auth/users/not-a-uuid/activate')).statusCode).toBe(400);
  });
});

describe('POST /api/auth/users/:id/resend-invite', () => {
  it('issues a new link and voids the old one', async () => {
    const created = await adminA.post('/api/auth/users/as/admin', {
      username: `inv${randomUUID().slice(0, 6)}`,
      email: `inv${randomUUID().slice(0, 6)}@a.test`,
      mobileNo: '9876543210',
      client: 'Org A',
      organizationId: orgA,
      roleId: viewerA,
    });
    const user = created.json().data;
    const mails = async () =>
      ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, user.email));
    const tokenOf = (text: string) => decodeURIComponent(/token=(\S+)/.exec(text)![1]!);
    const [first] = await mails();

    // Expire the first link: the list says expired, the resend makes it pending again.
    await ctx.database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.userId, user.id));
    expect((await adminA.get(`/api/auth/users/${user.id}`)).json().data.inviteStatus).toBe('expired');
    await ctx.database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(oneTimeTokens.userId, user.id));

    const res = await adminA.post(`/api/auth/users/${user.id}/resend-invite`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: messages.users.inviteResent,
      data: { inviteStatus: 'pending' },
    });
    const all = await mails();
    expect(all).toHaveLength(2);
    const second = all.find((m) => m.id !== first!.id)!;

    const old = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: tokenOf(first!.textBody), password: STRONG_PASSWORD },
    });
    expect(old.statusCode).toBe(400);
    const fresh = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: tokenOf(second.textBody), password: STRONG_PASSWORD },
    });
    expect(fresh.statusCode).toBe(200);
    await signIn(ctx.app, user.email, STRONG_PASSWORD);

    const again = await adminA.post(`/api/auth/users/${user.id}/resend-invite`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(messages.users.inviteAlreadyAccepted);
  });

  it('hides another tenant’s user (404), sending nothing', async () => {
    const foreign = await member(orgB, viewerB, { password: false });
    const [before] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(emailOutbox);
    expect((await adminA.post(`/api/auth/users/${foreign.id}/resend-invite`)).statusCode).toBe(404);
    const [after] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(emailOutbox);
    expect(after!.n).toBe(before!.n);
  });
});
