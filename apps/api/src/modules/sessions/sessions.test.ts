import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/client.js';
import { emailOutbox } from '../../db/schema/index.js';
import { loadEnv } from '../../env.js';
import {
  createTestApp,
  Session,
  signIn,
  STRONG_PASSWORD,
  TEST_HASH_COST,
  type TestContext,
} from '../../../test/harness.js';
import { createTenant } from '../../../test/fixtures.js';
import {
  createPostgresDatabase,
  prepareTestDatabase,
  TEST_SESSION_SECRET,
  usePostgres,
} from '../../../test/test-database.js';

const CHROME_ON_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { env: { PUBLIC_URL: 'https://portal.example.com' } });
});
afterAll(() => ctx.close());

interface Listed {
  id: string;
  device: string;
  address: string | null;
  signedInAt: string;
  lastUsedAt: string;
  current: boolean;
}

/** Signs `email` in from a browser of its own: its user agent and address. */
async function browser(email: string, userAgent: string, remoteAddress: string): Promise<Session> {
  const session = new Session(ctx.app);
  const res = await session.request({
    method: 'POST',
    url: '/api/auth/auth-session/login',
    payload: { identifier: email, password: STRONG_PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress,
  });
  expect(res.statusCode, res.body).toBe(200);
  return session;
}

const listOf = async (session: Session) => (await session.get('/api/auth/sessions')).json().data as Listed[];

describe('the sessions list', () => {
  it('shows each browser once with its device, address and times, and marks this one', async () => {
    const tenant = await createTenant(ctx, 'Two Browsers');
    const mac = await browser(tenant.email, CHROME_ON_MAC, '203.0.113.5');
    const windows = await browser(tenant.email, FIREFOX_ON_WINDOWS, '203.0.113.6');
    // A refresh rotates the token pair: still one browser, shown with its latest address.
    const refreshed = await mac.request({
      method: 'POST',
      url: '/api/auth/auth-session/refresh-token',
      headers: { 'user-agent': CHROME_ON_MAC },
      remoteAddress: '203.0.113.5',
    });
    expect(refreshed.statusCode).toBe(200);

    const listed = await listOf(mac);
    // The fixture's own sign-in, and the two browsers.
    expect(listed).toHaveLength(3);
    const current = listed.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ device: 'Chrome 131 on macOS Catalina', address: '203.0.113.5' });
    expect(listed.find((s) => s.address === '203.0.113.6')).toMatchObject({
      device: 'Firefox 133 on Windows 10',
      current: false,
    });
    for (const s of listed) expect(Date.parse(s.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(s.signedInAt));
    expect((await listOf(windows)).filter((s) => s.current)[0]!.address).toBe('203.0.113.6');
  });
});

describe('ending sessions', () => {
  it('signs the other browser out at its next request, refresh included', async () => {
    const tenant = await createTenant(ctx, 'Ends One');
    const other = await browser(tenant.email, FIREFOX_ON_WINDOWS, '203.0.113.9');
    const target = (await listOf(other)).find((s) => s.current)!;

    const ended = await tenant.session.delete(`/api/auth/sessions/${target.id}`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().message).toBe(messages.sessions.ended);
    expect((await other.get('/api/auth/profile')).statusCode).toBe(401);
    expect((await other.post('/api/auth/auth-session/refresh-token')).statusCode).toBe(401);
    expect((await tenant.session.get('/api/auth/profile')).statusCode).toBe(200);
    // Not one's own, or already ended: not found.
    expect((await tenant.session.delete(`/api/auth/sessions/${target.id}`)).statusCode).toBe(404);
  });

  it("refuses to end another user's session: not found", async () => {
    const a = await createTenant(ctx, 'Owner A');
    const b = await createTenant(ctx, 'Stranger B');
    const [aSession] = await listOf(a.session);
    const res = await b.session.delete(`/api/auth/sessions/${aSession!.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(messages.sessions.notFound);
    expect((await a.session.get('/api/auth/profile')).statusCode).toBe(200);
  });

  it('ends every other session and keeps this one', async () => {
    const tenant = await createTenant(ctx, 'Ends Others');
    const others = [
      await browser(tenant.email, CHROME_ON_MAC, '203.0.113.10'),
      await browser(tenant.email, FIREFOX_ON_WINDOWS, '203.0.113.11'),
    ];
    const res = await tenant.session.post('/api/auth/sessions/end-others');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.ended).toBe(2);
    for (const s of others) expect((await s.get('/api/auth/profile')).statusCode).toBe(401);
    expect(await listOf(tenant.session)).toHaveLength(1);
  });

  it('lets the platform operator end every session of a user, and nobody else', async () => {
    const root = await signIn(ctx.app);
    const tenant = await createTenant(ctx, 'Ended By Root');
    const second = await browser(tenant.email, CHROME_ON_MAC, '203.0.113.12');
    const colleague = await createTenant(ctx, 'Colleague', { organizationId: tenant.organizationId });

    const refused = await colleague.session.post(`/api/auth/users/${tenant.userId}/end-sessions`);
    expect(refused.statusCode).toBe(403);
    expect((await tenant.session.get('/api/auth/profile')).statusCode).toBe(200);

    const res = await root.post(`/api/auth/users/${tenant.userId}/end-sessions`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: messages.sessions.userSessionsEnded, data: { ended: 2 } });
    for (const s of [tenant.session, second]) expect((await s.get('/api/auth/profile')).statusCode).toBe(401);
    expect(
      (await root.post('/api/auth/users/00000000-0000-4000-8000-000000000000/end-sessions')).statusCode,
    ).toBe(404);
  });
});

describe('the new-device email', () => {
  const mailsTo = (email: string) =>
    ctx.database.db
      .select()
      .from(emailOutbox)
      .where(
        and(eq(emailOutbox.toAddress, email), eq(emailOutbox.subject, messages.twoFactor.newDeviceSubject)),
      );

  it('goes out for a browser new to the account, with the time, device, address and a configured link', async () => {
    const tenant = await createTenant(ctx, 'New Device');
    // The first browser the account signs in from (the fixture's) mails nobody.
    expect(await mailsTo(tenant.email)).toHaveLength(0);

    const other = new Session(ctx.app);
    const res = await other.request({
      method: 'POST',
      url: '/api/auth/auth-session/login',
      payload: { identifier: tenant.email, password: STRONG_PASSWORD },
      headers: { 'user-agent': FIREFOX_ON_WINDOWS, host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      remoteAddress: '203.0.113.20',
    });
    expect(res.statusCode).toBe(200);
    const [mail] = await mailsTo(tenant.email);
    expect(mail).toBeDefined();
    expect(mail!.textBody).toContain('Device: Firefox 133 on Windows 10');
    expect(mail!.textBody).toContain('Address: 203.0.113.20');
    expect(mail!.textBody).toMatch(/Time: \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m/);
    expect(mail!.textBody).toContain('https://portal.example.com/dashboard/settings?section=sessions');
    expect(mail!.textBody).not.toContain('evil.example');

    // The same browser again (its device cookie kept): no second email.
    await other.post('/api/auth/auth-session/logout');
    expect((await other.login(tenant.email, STRONG_PASSWORD)).statusCode).toBe(200);
    expect(await mailsTo(tenant.email)).toHaveLength(1);
    // A forged device cookie is only a new browser.
    const forged = new Session(ctx.app);
    forged.cookies.set('device_id', 'not-a-device-id');
    expect((await forged.login(tenant.email, STRONG_PASSWORD)).statusCode).toBe(200);
    expect(await mailsTo(tenant.email)).toHaveLength(2);
  });
});

// Each request reads its session from the database, so a session ended through one API process is
// refused by another at once. On PostgreSQL two apps with their own pools and caches; on the
// embedded database, which one process owns, two apps over its one connection.
describe('two API processes', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('refuses on one a session ended through the other, at its next request', async () => {
    let appA = ctx.app;
    let appB: typeof ctx.app;
    const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SESSION_SECRET: TEST_SESSION_SECRET });
    const open = async (databaseUrl?: string, prepare = false) => {
      const database = databaseUrl ? await openDatabase({ databaseUrl }) : ctx.database;
      if (prepare) await prepareTestDatabase(database);
      const app = await buildApp({ env, database, hashCost: TEST_HASH_COST, logger: false });
      await app.ready();
      closers.push(async () => {
        await app.close();
        if (databaseUrl) await database.close();
      });
      return app;
    };
    if (usePostgres) {
      const scratch = await createPostgresDatabase();
      closers.push(scratch.drop);
      appA = await open(scratch.url, true);
      appB = await open(scratch.url);
    } else {
      appB = await open();
    }
    const onA = await signIn(appA);
    const phoneOnB = await signIn(appB);
    expect((await phoneOnB.get('/api/auth/auth-session/me')).statusCode).toBe(200);
    const phone = ((await phoneOnB.get('/api/auth/sessions')).json().data as Listed[]).find(
      (s) => s.current,
    )!;

    expect((await onA.delete(`/api/auth/sessions/${phone.id}`)).statusCode).toBe(200);
    const next = await phoneOnB.get('/api/auth/auth-session/me');
    expect(next.statusCode).toBe(401);
    expect((await onA.get('/api/auth/auth-session/me')).statusCode).toBe(200);
  });
});
