import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, sessions, users } from '../src/db/schema/index.js';
import {
  createTestApp,
  createUserDirect,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  type TestContext,
} from './harness.js';

/**
 * Issue 20, items 1 and 2: nothing a client says about itself (Host, X-Forwarded-*) decides where an
 * email's link points or which address a request counts against.
 */
const HOSTILE_HEADERS = [
  { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
  { host: 'attacker.example:8443' },
  { host: 'attacker.example:8443', 'x-forwarded-host': 'evil.example', forwarded: 'host=evil.example' },
];

async function lastMailTo(ctx: TestContext, to: string) {
  await ctx.app.deps.jobs.settled();
  const [mail] = await ctx.database.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, to))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  return mail?.textBody ?? '';
}

/** A new admin of the platform's organization (no second factor required); answers the email. */
async function platformUserWithoutSecondFactor(ctx: TestContext): Promise<string> {
  const [me] = await ctx.database.db.select().from(users).where(eq(users.id, ctx.adminId));
  const email = `plain-${randomUUID()}@trust.test`;
  await createUserDirect(ctx, { email, roleId: await roleIdByName(ctx), organizationId: me!.organizationId });
  return email;
}

/** Every link in every email the portal sends to a user, with the hostile headers on each request. */
async function mailedLinks(ctx: TestContext): Promise<string[]> {
  const root = await signIn(ctx.app);
  const [me] = await ctx.database.db.select().from(users).where(eq(users.id, ctx.adminId));
  const adminRole = await roleIdByName(ctx);
  const links: string[] = [];
  for (const [i, headers] of HOSTILE_HEADERS.entries()) {
    const victim = `victim${i}@links.test`;
    await createUserDirect(ctx, { email: victim, roleId: adminRole, organizationId: me!.organizationId });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: victim },
      headers,
    });
    links.push(await lastMailTo(ctx, victim));

    const invited = `invited${i}@links.test`;
    const created = await root.post(
      '/api/auth/users/as/admin',
      {
        username: `invited${i}`,
        email: invited,
        mobileNo: '9876543210',
        client: `Links ${i}`,
        organizationId: randomUUID(),
        roleId: adminRole,
      },
      { headers },
    );
    expect(created.statusCode, created.body).toBe(201);
    links.push(await lastMailTo(ctx, invited));
    const resent = await root.post(`/api/auth/users/${created.json().data.id}/resend-invite`, undefined, {
      headers,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    links.push(await lastMailTo(ctx, invited));
  }
  return links;
}

describe('links in emails', () => {
  it('come from http://localhost:PORT when PUBLIC_URL is unset, whatever Host and X-Forwarded-* say', async () => {
    const ctx = await createTestApp({}, { env: { PORT: '4321' } });
    try {
      const links = await mailedLinks(ctx);
      expect(links).toHaveLength(9);
      for (const text of links) {
        expect(text).toMatch(/http:\/\/localhost:4321\/auth\/reset-password\?token=/);
        expect(text).not.toMatch(/evil|attacker/);
      }
    } finally {
      await ctx.close();
    }
  });

  it('come from PUBLIC_URL when it is set, even with a proxy trusted', async () => {
    const ctx = await createTestApp(
      {},
      { env: { PUBLIC_URL: 'https://portal.example.com', TRUST_PROXY: '127.0.0.1' } },
    );
    try {
      for (const text of await mailedLinks(ctx)) {
        expect(text).toMatch(/https:\/\/portal\.example\.com\/auth\/reset-password\?token=/);
        expect(text).not.toMatch(/evil|attacker/);
      }
    } finally {
      await ctx.close();
    }
  });
});

describe('the client address', () => {
  const login = (ctx: TestContext, headers: Record<string, string>, remoteAddress = '192.0.2.10') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/auth-session/login',
      payload: { identifier: 'nobody@address.test', password: 'Wrong-Passw0rd!' },
      headers,
      remoteAddress,
    });

  it('ignores X-Forwarded-For without TRUST_PROXY: a client cannot pick a fresh address to dodge the limit', async () => {
    const ctx = await createTestApp({ limits: { loginPerAddress: 3, lockoutThreshold: 50 } });
    try {
      const codes = [];
      for (let i = 0; i < 5; i++)
        codes.push((await login(ctx, { 'x-forwarded-for': `10.9.8.${i}` })).statusCode);
      expect(codes).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await ctx.close();
    }
  });

  it('takes X-Forwarded-For only from a listed proxy, and always stores a valid IP', async () => {
    const ctx = await createTestApp({}, { env: { TRUST_PROXY: '192.0.2.10/32' } });
    try {
      // A user without a second factor, whose password step starts the session.
      const email = await platformUserWithoutSecondFactor(ctx);
      const signInWith = async (headers: Record<string, string>, remoteAddress: string) => {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/auth/auth-session/login',
          payload: { identifier: email, password: STRONG_PASSWORD },
          headers,
          remoteAddress,
        });
        expect(res.statusCode).toBe(200);
        const [row] = await ctx.database.db
          .select({ ip: sessions.ipAddress })
          .from(sessions)
          .orderBy(desc(sessions.createdAt))
          .limit(1);
        return row!.ip ?? '';
      };
      // Through the listed proxy: the client it names.
      expect(await signInWith({ 'x-forwarded-for': '203.0.113.9' }, '192.0.2.10')).toBe('203.0.113.9');
      // From anyone else: the socket's address, whatever the header says.
      expect(await signInWith({ 'x-forwarded-for': '203.0.113.9' }, '192.0.2.99')).toBe('192.0.2.99');
      // Garbage passed on by the proxy is never stored.
      for (const junk of ['not-an-ip', "'; drop table users; --", '999.1.1.1', 'x'.repeat(300)]) {
        const stored = await signInWith({ 'x-forwarded-for': junk }, '192.0.2.10');
        expect(isIP(stored), junk).not.toBe(0);
      }
    } finally {
      await ctx.close();
    }
  });
});

let shared: TestContext;
beforeAll(async () => {
  shared = await createTestApp({}, { env: { PUBLIC_URL: 'https://portal.example.com' } });
});
afterAll(() => shared.close());

describe('cookies under an https PUBLIC_URL', () => {
  it('are Secure even when the request itself came over http', async () => {
    const res = await shared.app.inject({
      method: 'POST',
      url: '/api/auth/auth-session/login',
      payload: { identifier: await platformUserWithoutSecondFactor(shared), password: STRONG_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    // Access, refresh, CSRF and the device cookie.
    expect(res.cookies.length).toBeGreaterThanOrEqual(4);
    for (const cookie of res.cookies) expect(cookie.secure, cookie.name).toBe(true);
  });

  it('accept state-changing requests from PUBLIC_URL’s origin only', async () => {
    const session = await signIn(shared.app);
    const foreign = await session.post('/api/auth/auth-session/logout', undefined, {
      headers: { origin: 'http://localhost:3000' },
    });
    expect(foreign.statusCode).toBe(403);
    const own = await session.post('/api/auth/auth-session/logout', undefined, {
      headers: { origin: 'https://portal.example.com' },
    });
    expect(own.statusCode).toBe(200);
  });
});
