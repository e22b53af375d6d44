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
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { createRole } from '../../../test/fixtures.js';

let ctx: TestContext;
let adminRoleId: string;
let root: Session;
let orgA: string;
let orgB: string;
let adminA: Session;
let roleOfB: string;
beforeAll(async () => {
  ctx = await createTestApp();
  adminRoleId = await roleIdByName(ctx);
  root = await signIn(ctx.app);
  orgA = await createOrganizationDirect(ctx, 'Org A');
  orgB = await createOrganizationDirect(ctx, 'Org B');
  await createUserDirect(ctx, { email: 'a-admin@a.test', roleId: adminRoleId, organizationId: orgA });
  adminA = await signIn(ctx.app, 'a-admin@a.test', STRONG_PASSWORD);
  roleOfB = await createRole(ctx, orgB, 'B Reviewer', { dashboard: ['READ'] });
});
afterAll(() => ctx.close());

let n = 0;
const body = (over: Record<string, unknown> = {}) => {
  n += 1;
  return {
    username: `user.${n}.${randomUUID().slice(0, 6)}`,
    email: `u${n}.${randomUUID().slice(0, 6)}@acme.test`,
    mobileNo: '9876543210',
    client: 'Acme Hiring',
    organizationId: randomUUID(),
    roleId: adminRoleId,
    isSubscription: false,
    ...over,
  };
};

async function count(
  table: typeof users | typeof organizations | typeof emailOutbox | typeof activityEntries,
) {
  const [row] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return row!.n;
}

async function snapshot() {
  return {
    users: await count(users),
    organizations: await count(organizations),
    outbox: await count(emailOutbox),
    activity: await count(activityEntries),
  };
}

function linkToken(text: string): string {
  return decodeURIComponent(/reset-password\?token=(\S+)/.exec(text)![1]!);
}

describe('POST /api/auth/users/as/admin', () => {
  it('creates the organization and the user, and emails a 72 h invite link instead of a password', async () => {
    const b = body({ password: 'Ignored-Passw0rd!', email: 'New.Admin@Acme.test', fullName: 'New Admin' });
    const res = await root.post('/api/auth/users/as/admin', b);
    expect(res.statusCode).toBe(201);
    const user = res.json().data;
    expect(user).toMatchObject({
      username: b.username,
      email: 'new.admin@acme.test',
      fullName: 'New Admin',
      mobileNo: '9876543210',
      organizationId: b.organizationId,
      client: 'Acme Hiring',
      isActive: true,
      enabled: true,
      isAdmin: true,
      inviteStatus: 'pending',
      role: { name: 'admin' },
    });
    expect(JSON.stringify(res.json())).not.toMatch(/password/i);
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
    expect(Math.round((token!.expiresAt.getTime() - token!.createdAt.getTime()) / 3_600_000)).toBe(72);
    const [mail] = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, user.email));
    expect(mail?.textBody).toMatch(/\/auth\/reset-password\?token=/);
    expect(mail?.textBody).toContain('72 hours');
    const acts = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(eq(activityEntries.organizationId, b.organizationId));
    expect(acts.map((a) => `${a.action} ${a.entityType}`).sort()).toEqual([
      'created organization',
      'created user',
    ]);

    // The password sent with the request was ignored: it does not sign in.
    const ignored = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/auth-session/login',
      payload: { identifier: b.username, password: 'Ignored-Passw0rd!' },
    });
    expect(ignored.statusCode).toBe(401);
    // The invite link sets the password; the new admin can then sign in.
    const reset = await root.post('/api/auth/reset-password', {
      token: linkToken(mail!.textBody),
      password: STRONG_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);
    const newAdmin = await signIn(ctx.app, b.username, STRONG_PASSWORD);
    const me = await newAdmin.get(`/api/auth/users/${user.id}`);
    expect(me.json().data.inviteStatus).toBe('accepted');
  });

  it('adds a second user to an organization created by an earlier invite (idempotent organization)', async () => {
    const first = body();
    expect((await root.post('/api/auth/users/as/admin', first)).statusCode).toBe(201);
    const before = await count(organizations);
    const res = await root.post(
      '/api/auth/users/as/admin',
      body({ organizationId: first.organizationId, client: 'Another Name' }),
    );
    expect(res.statusCode).toBe(201);
    expect(await count(organizations)).toBe(before);
    const [org] = await ctx.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, first.organizationId));
    expect(org?.name).toBe('Acme Hiring');
  });

  it('checks the fields in the order of the invite form, one message at a time, creating nothing', async () => {
    const before = await snapshot();
    const bad = {
      email: 'not-an-email',
      username: 'x',
      mobileNo: '12345',
      client: '   ',
      organizationId: undefined as string | undefined,
      roleId: undefined as string | undefined,
    };
    const steps: [Partial<typeof bad>, string][] = [
      [{}, messages.users.invalidEmail],
      [{ email: 'ok@acme.test' }, messages.users.invalidUsername],
      [{ username: 'good.name' }, messages.users.invalidMobile],
      [{ mobileNo: '9876543210' }, messages.users.companyRequired],
      [{ client: 'Acme' }, 'organizationId is required'],
      [{ organizationId: randomUUID() }, 'roleId is required'],
    ];
    let current = { ...bad };
    for (const [fix, expected] of steps) {
      current = { ...current, ...fix };
      const res = await root.post('/api/auth/users/as/admin', current);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(expected);
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a username of 2 characters', { username: 'ab' }, messages.users.invalidUsername],
    ['a username of 51 characters', { username: 'a'.repeat(51) }, messages.users.invalidUsername],
    ['a username with a space', { username: 'john doe' }, messages.users.invalidUsername],
    ['a mobile number of 11 digits', { mobileNo: '98765432101' }, messages.users.invalidMobile],
    ['a mobile number with letters', { mobileNo: '98765abcde' }, messages.users.invalidMobile],
    ['no email', { email: undefined }, messages.users.invalidEmail],
    ['no company name', { client: undefined }, messages.users.companyRequired],
    ['an empty organizationId', { organizationId: '' }, 'organizationId is required'],
    ['a malformed organizationId', { organizationId: 'org-1' }, messages.users.organizationIdInvalid],
    ['a malformed roleId', { roleId: 'admin' }, messages.users.roleIdInvalid],
  ])('refuses %s with 400', async (_name, over, expected) => {
    const before = await snapshot();
    const res = await root.post('/api/auth/users/as/admin', body(over));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(expected);
    expect(await snapshot()).toEqual(before);
  });

  it('accepts usernames of 3 and 50 characters with dots, underscores and hyphens', async () => {
    for (const username of ['a.b', `${'a_b-c.'.repeat(8)}ab`]) {
      const res = await root.post('/api/auth/users/as/admin', body({ username }));
      expect(res.statusCode).toBe(201);
    }
  });

  it('answers 409 for a duplicate username or email in any case, creating nothing', async () => {
    const first = body();
    expect((await root.post('/api/auth/users/as/admin', first)).statusCode).toBe(201);
    const before = await snapshot();
    const res = await root.post('/api/auth/users/as/admin', body({ email: first.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.users.duplicate);
    const res2 = await root.post(
      '/api/auth/users/as/admin',
      body({ username: first.username.toUpperCase() }),
    );
    expect(res2.statusCode).toBe(409);
    expect(res2.json().message).toBe(messages.users.duplicate);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps one user when two identical invites race', async () => {
    const b = body();
    const answers = await Promise.all([
      root.post('/api/auth/users/as/admin', b),
      root.post('/api/auth/users/as/admin', b),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const rows = await ctx.database.db.select().from(users).where(eq(users.email, b.email));
    expect(rows).toHaveLength(1);
  });

  it('lets an organization admin create only in their own organization', async () => {
    expect((await adminA.post('/api/auth/users/as/admin', body({ organizationId: orgA }))).statusCode).toBe(
      201,
    );
    const before = await snapshot();
    const foreign = await adminA.post('/api/auth/users/as/admin', body({ organizationId: orgB }));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(messages.users.organizationNotFound);
    // A new organization needs Organization Management CREATE, which the admin role lacks; the answer
    // is the same as for another tenant's, so a tenant cannot tell which ids exist.
    const unknown = await adminA.post('/api/auth/users/as/admin', body());
    expect(unknown.statusCode).toBe(foreign.statusCode);
    expect(unknown.body).toBe(foreign.body);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a role the organization cannot see: another tenant’s custom role, or super_admin', async () => {
    const before = await snapshot();
    const foreignRole = await root.post(
      '/api/auth/users/as/admin',
      body({ organizationId: orgA, roleId: roleOfB }),
    );
    expect(foreignRole.statusCode).toBe(404);
    expect(foreignRole.json().message).toBe(messages.roles.roleNotFound);
    const superRole = await roleIdByName(ctx, 'super_admin');
    const bySub = await adminA.post(
      '/api/auth/users/as/admin',
      body({ organizationId: orgA, roleId: superRole }),
    );
    expect(bySub.statusCode).toBe(404);
    const unknown = await root.post('/api/auth/users/as/admin', body({ roleId: randomUUID() }));
    expect(unknown.statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('does not let a custom role give a role wider than its own (403)', async () => {
    const creatorRole = await createRole(ctx, orgA, 'A Recruiter', {
      users: ['READ', 'CREATE'],
      dashboard: ['READ'],
    });
    await createUserDirect(ctx, { email: 'recruiter@a.test', roleId: creatorRole, organizationId: orgA });
    const recruiter = await signIn(ctx.app, 'recruiter@a.test', STRONG_PASSWORD);
    const before = await snapshot();
    const res = await recruiter.post('/api/auth/users/as/admin', body({ organizationId: orgA }));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(messages.roles.scopeNotHeld);
    expect(await snapshot()).toEqual(before);
    const viewer = await createRole(ctx, orgA, 'A Viewer', { dashboard: ['READ'] });
    const ok = await recruiter.post(
      '/api/auth/users/as/admin',
      body({ organizationId: orgA, roleId: viewer }),
    );
    expect(ok.statusCode).toBe(201);
  });

  it('needs User Management CREATE (403) and a session (401)', async () => {
    const viewer = await createRole(ctx, orgA, 'A Reader', { users: ['READ'] });
    await createUserDirect(ctx, { email: 'reader@a.test', roleId: viewer, organizationId: orgA });
    const reader = await signIn(ctx.app, 'reader@a.test', STRONG_PASSWORD);
    const before = await snapshot();
    expect((await reader.post('/api/auth/users/as/admin', body({ organizationId: orgA }))).statusCode).toBe(
      403,
    );
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/users/as/admin',
      payload: body(),
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });
});

describe('POST /api/auth/auth-session/register', () => {
  it('adds a member with a custom role to an existing organization and emails the invite', async () => {
    const role = await createRole(ctx, orgA, 'A Interviewer', { positions: ['READ'] });
    const res = await adminA.post(
      '/api/auth/auth-session/register',
      body({ organizationId: orgA, roleId: role, client: 'Org A' }),
    );
    expect(res.statusCode).toBe(201);
    const user = res.json().data;
    expect(user).toMatchObject({
      organizationId: orgA,
      roleId: role,
      isAdmin: false,
      inviteStatus: 'pending',
      role: { name: 'A Interviewer', isSystem: false },
    });
    const [mail] = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, user.email));
    expect(mail?.textBody).toMatch(/reset-password\?token=/);
  });

  it('lets super_admin add a member to any organization with that organization’s role', async () => {
    const res = await root.post(
      '/api/auth/auth-session/register',
      body({ organizationId: orgB, roleId: roleOfB }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().data.organizationId).toBe(orgB);
  });

  it('never creates an organization (404 for an unknown id) nor reaches another tenant (404)', async () => {
    const before = await snapshot();
    const unknown = await root.post('/api/auth/auth-session/register', body());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(messages.users.organizationNotFound);
    const foreign = await adminA.post(
      '/api/auth/auth-session/register',
      body({ organizationId: orgB, roleId: roleOfB }),
    );
    expect(foreign.statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('applies the same field rules and messages', async () => {
    const res = await adminA.post(
      '/api/auth/auth-session/register',
      body({ organizationId: orgA, mobileNo: '123' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.users.invalidMobile);
  });
});
