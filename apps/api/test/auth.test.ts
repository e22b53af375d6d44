import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, oneTimeTokens, sessions, users } from '../src/db/schema/index.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestApp,
  createUserDirect,
  roleIdByName,
  Session,
  signIn,
  STRONG_PASSWORD,
  type TestContext,
} from './harness.js';

let ctx: TestContext;
let adminRoleId: string;
let platformOrgId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  adminRoleId = await roleIdByName(ctx, 'admin');
  const [root] = await ctx.database.db.select().from(users).where(eq(users.id, ctx.adminId));
  platformOrgId = root!.organizationId;
});
afterAll(() => ctx.close());

const LOGOUT = '/api/auth/auth-session/logout';
const REFRESH = '/api/auth/auth-session/refresh-token';

async function liveSessionCount(userId: string) {
  const rows = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, userId));
  return rows.filter((r) => r.revokedAt === null).length;
}

describe('sign-in', () => {
  it('sets the access, refresh and readable CSRF cookies and the x-user-id header', async () => {
    const session = new Session(ctx.app);
    const res = await session.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-user-id']).toBe(ctx.adminId);
    const byName = Object.fromEntries(res.cookies.map((c) => [c.name, c]));
    expect(byName.access_token?.httpOnly).toBe(true);
    expect(byName.refresh_token?.httpOnly).toBe(true);
    expect(byName['XSRF-TOKEN']?.httpOnly).toBeFalsy();
    expect(byName.access_token?.sameSite).toBe('Lax');
    expect(res.json()).toMatchObject({ success: true, data: { id: ctx.adminId, email: ADMIN_EMAIL } });
  });

  it('accepts the username as well as the email', async () => {
    const [root] = await ctx.database.db.select().from(users).where(eq(users.id, ctx.adminId));
    const res = await new Session(ctx.app).login(root!.username, ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
  });

  it('answers wrong password, unknown account, inactive and not-yet-activated accounts identically', async () => {
    await createUserDirect(ctx, {
      email: 'inactive@t.test',
      roleId: adminRoleId,
      organizationId: platformOrgId,
      isActive: false,
    });
    await ctx.database.db.insert(users).values({
      email: 'pending@t.test',
      username: 'pending',
      roleId: adminRoleId,
      organizationId: platformOrgId,
    });
    const answers = await Promise.all([
      new Session(ctx.app).login(ADMIN_EMAIL, 'Wrong-Passw0rd!'),
      new Session(ctx.app).login('nobody@t.test', 'Wrong-Passw0rd!'),
      new Session(ctx.app).login('inactive@t.test', STRONG_PASSWORD),
      new Session(ctx.app).login('pending@t.test', 'anything'),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe(answers[0]!.body);
      expect(res.json().message).toBe('Invalid email or password');
      expect(res.cookies).toHaveLength(0);
    }
  });

  it('locks an account after repeated failures, with the same answer as a wrong password', async () => {
    await createUserDirect(ctx, {
      email: 'lockme@t.test',
      roleId: adminRoleId,
      organizationId: platformOrgId,
    });
    const wrong = await new Session(ctx.app).login('lockme@t.test', 'Wrong-Passw0rd!');
    for (let i = 0; i < 4; i++) await new Session(ctx.app).login('lockme@t.test', 'Wrong-Passw0rd!');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, 'lockme@t.test'));
    expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    const locked = await new Session(ctx.app).login('lockme@t.test', STRONG_PASSWORD);
    expect(locked.statusCode).toBe(401);
    expect(locked.body).toBe(wrong.body);
  });

  it('rejects a malformed body with 400 in the error shape', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/auth-session/login',
      payload: { password: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      message: expect.any(String),
      errors: expect.any(Object),
    });
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request without, with a wrong, or with another session’s token, and changes nothing', async () => {
    const mine = await signIn(ctx.app);
    const other = await signIn(ctx.app);
    const before = await liveSessionCount(ctx.adminId);
    const attempts = [
      await mine.post(LOGOUT, undefined, { csrf: false }),
      await mine.post(LOGOUT, undefined, { headers: { 'x-csrf-token': 'not-the-token' } }),
      await mine.post(LOGOUT, undefined, { headers: { 'x-csrf-token': other.csrf! } }),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
    }
    expect(await liveSessionCount(ctx.adminId)).toBe(before);
    expect((await mine.get(`/api/auth/users/${mine.userId}`)).statusCode).toBe(200);
  });

  it('refuses a foreign Origin and a cross-site fetch even with the right token', async () => {
    const mine = await signIn(ctx.app);
    const before = await liveSessionCount(ctx.adminId);
    const foreign = await mine.post(LOGOUT, undefined, { headers: { origin: 'https://evil.example' } });
    const crossSite = await mine.post(LOGOUT, undefined, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(foreign.statusCode).toBe(403);
    expect(crossSite.statusCode).toBe(403);
    expect(await liveSessionCount(ctx.adminId)).toBe(before);
  });

  it('accepts the same-origin request with the token', async () => {
    const mine = await signIn(ctx.app);
    const res = await mine.post(LOGOUT, undefined, {
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('refresh', () => {
  it('rotates the refresh token and keeps the CSRF token of the session family', async () => {
    const session = await signIn(ctx.app);
    const firstAccess = session.cookies.get('access_token');
    const firstRefresh = session.cookies.get('refresh_token');
    const csrf = session.csrf;
    const res = await session.post(REFRESH);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-user-id']).toBe(ctx.adminId);
    expect(session.cookies.get('access_token')).not.toBe(firstAccess);
    expect(session.cookies.get('refresh_token')).not.toBe(firstRefresh);
    expect(session.csrf).toBe(csrf);
    expect((await session.get(`/api/auth/users/${session.userId}`)).statusCode).toBe(200);
    // The alias answers the same way.
    expect((await session.post('/api/refresh')).statusCode).toBe(200);
  });

  it('replaying a rotated refresh token revokes the whole family', async () => {
    const session = await signIn(ctx.app);
    const stolen = session.cookies.get('refresh_token')!;
    expect((await session.post(REFRESH)).statusCode).toBe(200);
    const replay = await ctx.app.inject({
      method: 'POST',
      url: REFRESH,
      cookies: { refresh_token: stolen },
      headers: { 'x-csrf-token': session.csrf! },
    });
    expect(replay.statusCode).toBe(401);
    // The legitimate holder's newer tokens are dead too.
    expect((await session.get(`/api/auth/users/${session.userId}`)).statusCode).toBe(401);
    expect((await session.post(REFRESH)).statusCode).toBe(401);
  });

  it('needs the CSRF token of the family', async () => {
    const session = await signIn(ctx.app);
    expect((await session.post(REFRESH, undefined, { csrf: false })).statusCode).toBe(403);
    expect((await session.post(REFRESH)).statusCode).toBe(200);
  });

  it('refuses a missing or unknown refresh token', async () => {
    expect((await ctx.app.inject({ method: 'POST', url: REFRESH })).statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: 'x'.repeat(43) } }))
        .statusCode,
    ).toBe(401);
  });
});

describe('ending sessions', () => {
  it('logout revokes the session on the server and clears the cookies', async () => {
    const session = await signIn(ctx.app);
    const access = session.cookies.get('access_token')!;
    const refresh = session.cookies.get('refresh_token')!;
    const csrf = session.csrf!;
    const res = await session.post(LOGOUT);
    expect(res.statusCode).toBe(200);
    const cleared = res.cookies.filter((c) => c.value === '').map((c) => c.name);
    expect(cleared).toEqual(expect.arrayContaining(['access_token', 'refresh_token', 'XSRF-TOKEN', 'csrf']));
    const reuse = await ctx.app.inject({
      method: 'GET',
      url: `/api/auth/users/${ctx.adminId}`,
      cookies: { access_token: access },
    });
    expect(reuse.statusCode).toBe(401);
    const refreshAfter = await ctx.app.inject({
      method: 'POST',
      url: REFRESH,
      cookies: { refresh_token: refresh },
      headers: { 'x-csrf-token': csrf },
    });
    expect(refreshAfter.statusCode).toBe(401);
  });

  it('an inactive user’s live session stops working at once', async () => {
    const id = await createUserDirect(ctx, {
      email: 'soon-inactive@t.test',
      roleId: adminRoleId,
      organizationId: platformOrgId,
    });
    const session = await signIn(ctx.app, 'soon-inactive@t.test', STRONG_PASSWORD);
    expect((await session.get(`/api/auth/users/${id}`)).statusCode).toBe(200);
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, id));
    expect((await session.get(`/api/auth/users/${id}`)).statusCode).toBe(401);
    expect((await session.post(REFRESH)).statusCode).toBe(401);
  });
});

describe('password recovery', () => {
  it('answers the same for a known and an unknown email and mails only the known one', async () => {
    const id = await createUserDirect(ctx, {
      email: 'forgetful@t.test',
      roleId: adminRoleId,
      organizationId: platformOrgId,
    });
    const known = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'Forgetful@t.test' },
    });
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'ghost@t.test' },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    const mails = await ctx.database.db.select().from(emailOutbox);
    expect(mails.filter((m) => m.toAddress === 'ghost@t.test')).toHaveLength(0);
    const mail = mails.find((m) => m.toAddress === 'forgetful@t.test');
    expect(mail?.textBody).toMatch(/\/auth\/reset-password\?token=/);
    const token = /token=([^\s]+)/.exec(mail!.textBody)![1]!;

    const signedIn = await signIn(ctx.app, 'forgetful@t.test', STRONG_PASSWORD);
    const weak = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: decodeURIComponent(token), password: 'N3w-Passw0rd!' },
    });
    expect(reset.statusCode).toBe(200);
    // Single use, and every old session ended.
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: decodeURIComponent(token), password: 'N3w-Passw0rd!x' },
    });
    expect(again.statusCode).toBe(400);
    expect((await signedIn.get(`/api/auth/users/${id}`)).statusCode).toBe(401);
    expect((await new Session(ctx.app).login('forgetful@t.test', 'N3w-Passw0rd!')).statusCode).toBe(200);
    const tokens = await ctx.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, id));
    expect(tokens.every((t) => t.usedAt !== null)).toBe(true);
  });
});

describe('rate limit per address', () => {
  it('answers 429 past the limit, whatever the account', async () => {
    const limited = await createTestApp({
      limits: {
        loginPerAddress: 3,
        forgotPerAddress: 3,
        windowMs: 60_000,
        lockoutThreshold: 50,
        lockoutMs: 60_000,
      },
    });
    try {
      const codes = [];
      for (let i = 0; i < 5; i++)
        codes.push((await new Session(limited.app).login(`user${i}@t.test`, 'x')).statusCode);
      expect(codes).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('platform', () => {
  it('serves health, the public config and the OpenAPI document', async () => {
    expect((await ctx.app.inject({ url: '/api/health' })).json()).toMatchObject({
      success: true,
      status: 'ok',
    });
    expect((await ctx.app.inject({ url: '/api/config' })).json().data.paymentProvider).toBe('sandbox');
    const doc = await ctx.app.inject({ url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(Object.keys(doc.json().paths)).toContain('/api/auth/auth-session/login');
  });

  it('answers unknown API paths with 404 in the error shape', async () => {
    const res = await ctx.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Not found', errors: {} });
  });
});
