import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '@portal/shared';
import { emailOutbox, oneTimeTokens, sessions, users } from '../src/db/schema/index.js';
import { issueOneTimeToken } from '../src/modules/password/one-time-tokens.repo.js';
import { sha256Hex } from '../src/lib/tokens.js';
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

function loginFrom(from: { remoteAddress: string }, identifier: string, password: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/auth-session/login',
    payload: { identifier, password },
    ...from,
  });
}

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

  it('locks an account for the address its failures come from, with the same answer as a wrong password', async () => {
    await createUserDirect(ctx, {
      email: 'lockme@t.test',
      roleId: adminRoleId,
      organizationId: platformOrgId,
    });
    const stranger = { remoteAddress: '198.51.100.66' };
    const wrong = await loginFrom(stranger, 'lockme@t.test', 'Wrong-Passw0rd!');
    for (let i = 0; i < 4; i++) await loginFrom(stranger, 'lockme@t.test', 'Wrong-Passw0rd!');
    const locked = await loginFrom(stranger, 'lockme@t.test', STRONG_PASSWORD);
    expect(locked.statusCode).toBe(401);
    expect(locked.body).toBe(wrong.body);
    // The owner, from another address, is not locked out by the stranger.
    expect(
      (await loginFrom({ remoteAddress: '203.0.113.7' }, 'lockme@t.test', STRONG_PASSWORD)).statusCode,
    ).toBe(200);
  });

  it('keeps even the super administrator open to their own addresses while a stranger fails', async () => {
    for (let i = 0; i < 12; i++)
      await loginFrom({ remoteAddress: '198.51.100.99' }, ADMIN_EMAIL, 'Wrong-Passw0rd!');
    expect(
      (await loginFrom({ remoteAddress: '198.51.100.99' }, ADMIN_EMAIL, ADMIN_PASSWORD)).statusCode,
    ).toBe(401);
    expect((await new Session(ctx.app).login(ADMIN_EMAIL, ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('does not extend a lock by attempts made while it holds', async () => {
    const short = await createTestApp({ limits: { lockoutMs: 1_500 } });
    try {
      const [root] = await short.database.db.select().from(users).where(eq(users.id, short.adminId));
      await createUserDirect(short, {
        email: 'held@t.test',
        roleId: root!.roleId,
        organizationId: root!.organizationId,
      });
      const attempt = (password: string) =>
        short.app.inject({
          method: 'POST',
          url: '/api/auth/auth-session/login',
          payload: { identifier: 'held@t.test', password },
        });
      const started = Date.now();
      for (let i = 0; i < 5; i++) expect((await attempt('Wrong-Passw0rd!')).statusCode).toBe(401);
      // Locked: the right password is refused, and six more wrong ones come in while it holds.
      expect((await attempt(STRONG_PASSWORD)).statusCode).toBe(401);
      for (let i = 0; i < 6; i++) {
        expect((await attempt('Wrong-Passw0rd!')).statusCode).toBe(401);
        await new Promise((r) => setTimeout(r, 150));
      }
      // Once the window that opened with the first failure has passed, the owner gets in.
      await new Promise((r) => setTimeout(r, Math.max(0, started + 1_700 - Date.now())));
      expect((await attempt(STRONG_PASSWORD)).statusCode).toBe(200);
    } finally {
      await short.close();
    }
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

  it('accepts a request from the configured origin with the token', async () => {
    const mine = await signIn(ctx.app);
    const res = await mine.post(LOGOUT, undefined, { headers: { origin: 'http://localhost:3000' } });
    expect(res.statusCode).toBe(200);
  });

  it('judges the Origin by configuration, never by the request’s own Host', async () => {
    const mine = await signIn(ctx.app);
    const before = await liveSessionCount(ctx.adminId);
    for (const host of ['evil.example', 'evil.example:3000', 'localhost:80']) {
      const res = await mine.post(LOGOUT, undefined, { headers: { origin: `http://${host}`, host } });
      expect(res.statusCode, host).toBe(403);
    }
    expect(await liveSessionCount(ctx.adminId)).toBe(before);
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

  it('replaying a rotated refresh token after the grace window revokes the whole family', async () => {
    const session = await signIn(ctx.app);
    const stolen = session.cookies.get('refresh_token')!;
    expect((await session.post(REFRESH)).statusCode).toBe(200);
    // The rotation happened longer ago than the grace window.
    await ctx.database.db
      .update(sessions)
      .set({ rotatedAt: sql`now() - interval '31 seconds'` })
      .where(eq(sessions.refreshTokenHash, sha256Hex(stolen)));
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

  it('two tabs refreshing at once stay signed in: 10 concurrent refreshes of one token give 10 usable sessions', async () => {
    const session = await signIn(ctx.app);
    const token = session.cookies.get('refresh_token')!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.app.inject({
          method: 'POST',
          url: REFRESH,
          cookies: { refresh_token: token },
          headers: { 'x-csrf-token': session.csrf! },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    const accessTokens = answers.map((a) => a.cookies.find((c) => c.name === 'access_token')!.value);
    expect(new Set(accessTokens).size).toBe(10);
    for (const [i, access] of accessTokens.entries()) {
      const me = await ctx.app.inject({
        url: '/api/auth/auth-session/me',
        cookies: { access_token: access },
      });
      expect(me.statusCode, `session ${i}`).toBe(200);
      // Each tab's new refresh token rotates on its own.
      const next = await ctx.app.inject({
        method: 'POST',
        url: REFRESH,
        cookies: { refresh_token: answers[i]!.cookies.find((c) => c.name === 'refresh_token')!.value },
        headers: { 'x-csrf-token': session.csrf! },
      });
      expect(next.statusCode, `refresh of session ${i}`).toBe(200);
    }
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
    await ctx.app.deps.jobs.settled();
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

describe('reset-password', () => {
  it('checks the token before it hashes anything: a made-up token costs no hash', async () => {
    const hash = vi.spyOn(ctx.app.deps.hasher, 'hash');
    try {
      for (let i = 0; i < 20; i++) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/auth/reset-password',
          payload: { token: sha256Hex(String(i)), password: 'N3w-Passw0rd!' },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(messages.login.resetInvalid);
      }
      expect(hash).not.toHaveBeenCalled();
    } finally {
      hash.mockRestore();
    }
  });

  it('is limited per address, counting only tokens that were not live', async () => {
    const limited = await createTestApp({ limits: { resetPerAddress: 3 } });
    try {
      // An office behind one address accepts more invitations than the limit.
      const [root] = await limited.database.db.select().from(users).where(eq(users.id, limited.adminId));
      for (let i = 0; i < 5; i++) {
        const id = await createUserDirect(limited, {
          email: `office${i}@t.test`,
          roleId: root!.roleId,
          organizationId: root!.organizationId,
        });
        const token = await issueOneTimeToken(limited.database.db, id, 'invite', 1);
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/reset-password',
          payload: { token, password: 'N3w-Passw0rd!' },
        });
        expect(res.statusCode).toBe(200);
      }
      const codes = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/reset-password',
          payload: { token: sha256Hex(`made-up-${i}`), password: 'N3w-Passw0rd!' },
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([400, 400, 400, 429, 429]);
      // Another address is not affected.
      const other = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: sha256Hex('made-up'), password: 'N3w-Passw0rd!' },
        remoteAddress: '203.0.113.50',
      });
      expect(other.statusCode).toBe(400);
    } finally {
      await limited.close();
    }
  });
});

describe('rate limit per address', () => {
  it('answers 429 past the limit, whatever the account', async () => {
    const limited = await createTestApp({ limits: { loginPerAddress: 3, lockoutThreshold: 50 } });
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
