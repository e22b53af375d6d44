import argon2 from '@node-rs/argon2';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { CSRF_COOKIE, SYSTEM_ROLES } from '@portal/shared';
import { eq, sql } from 'drizzle-orm';
import { vi } from 'vitest';
import { buildApp, type BuildOptions } from '../src/app.js';
import { defaultConfig, type AppConfig } from '../src/core/config.js';
import type { Database } from '../src/db/client.js';
import { roles, users } from '../src/db/schema/index.js';
import { loadEnv } from '../src/env.js';
import { createPasswordHasher, type HashCost } from '../src/lib/passwords.js';
import { Secret, TOTP } from 'otpauth';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  ADMIN_TOTP_SECRET,
  TEST_HASH_COST,
  TEST_SESSION_SECRET,
  openTestDatabase,
} from './test-database.js';

export { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_TOTP_SECRET, TEST_HASH_COST };
/** `npm run test:long` (TEST_LONG=1): also the timing measurements and the long fuzz and fault loops. */
export const LONG_MODE = process.env.TEST_LONG === '1';
export const STRONG_PASSWORD = 'Str0ng-Passw0rd!';
export const TEST_JOBS: AppConfig['jobs'] = {
  ...defaultConfig.jobs,
  schedule: false,
  supervise: false,
  pollingIntervalSeconds: 0.5,
  shutdownMs: 2_000,
};
const FORBIDDEN_IN_RESPONSES = ['$argon2', 'passwordHash', 'password_hash', ADMIN_PASSWORD, STRONG_PASSWORD];

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  adminId: string;
  close(): Promise<void>;
}

/**
 * A fresh migrated and seeded database (a copy of the run's template) and app, for one test file.
 * `options.hashCost` replaces the cheap test Argon2id cost (the sign-in timing test runs at the
 * production cost); `options.env` adds configuration variables (PUBLIC_URL, TRUST_PROXY, ...) to the
 * test's own, never the caller's.
 */
export async function createTestApp(
  /** Limits default to generous test values; give only the ones a test is about. */
  config: Omit<Partial<AppConfig>, 'limits' | 'jobs'> & {
    limits?: Partial<AppConfig['limits']>;
    jobs?: Partial<AppConfig['jobs']>;
  } = {},
  options: {
    hashCost?: HashCost;
    env?: Record<string, string>;
    serveWeb?: boolean;
    /** Tracing and a logger of the test's own (tracing.test.ts). */
    tracing?: BuildOptions['tracing'];
    logger?: BuildOptions['logger'];
  } = {},
): Promise<TestContext> {
  const { database, drop } = await openTestDatabase();
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESSION_SECRET: TEST_SESSION_SECRET,
    ...options.env,
  });
  const app = await buildApp({
    env,
    database,
    hashCost: options.hashCost ?? TEST_HASH_COST,
    logger: options.logger ?? false,
    tracing: options.tracing,
    serveWeb: options.serveWeb ?? false,
    config: {
      ...config,
      limits: {
        loginPerAddress: 10_000,
        forgotPerAddress: 10_000,
        resetPerAddress: 10_000,
        windowMs: 60_000,
        lockoutThreshold: 5,
        lockoutMs: 60_000,
        codeFailuresPerAccount: 10_000,
        ...config.limits,
      },
      // Jobs run as in production, polled often; schedules and maintenance are each test's to start.
      jobs: { ...TEST_JOBS, ...config.jobs },
      // A loaded test machine lags; the overload test turns it on.
      overload: config.overload ?? { maxEventLoopDelayMs: 0 },
    },
  });
  // No answer anywhere may carry a password or a hash: checked on every test request.
  app.addHook('onSend', async (_request, _reply, payload) => {
    if (typeof payload === 'string' && FORBIDDEN_IN_RESPONSES.some((s) => payload.includes(s))) {
      throw new Error(`a response carried a password or hash: ${payload.slice(0, 200)}`);
    }
    return payload;
  });
  await app.ready();
  const [admin] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN_EMAIL));
  return {
    app,
    database,
    adminId: admin!.id,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
    },
  };
}

/** A signed-in client: keeps cookies like a browser and sends the CSRF header on writes. */
export class Session {
  cookies = new Map<string, string>();
  userId = '';
  constructor(private readonly app: FastifyInstance) {}

  get csrf(): string | undefined {
    return this.cookies.get(CSRF_COOKIE);
  }

  private absorb(response: LightMyRequestResponse) {
    for (const c of response.cookies) {
      if (
        c.value === '' ||
        (c.maxAge !== undefined && c.maxAge <= 0) ||
        (c.expires && new Date(c.expires).getTime() < Date.now())
      )
        this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  async request(options: InjectOptions & { csrf?: boolean }): Promise<LightMyRequestResponse> {
    const method = (options.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    const csrf = this.csrf;
    if (options.csrf !== false && method !== 'GET' && csrf && headers['x-csrf-token'] === undefined)
      headers['x-csrf-token'] = csrf;
    const response = await this.app.inject({
      ...options,
      headers,
      cookies: { ...Object.fromEntries(this.cookies), ...(options.cookies ?? {}) },
    });
    this.absorb(response);
    return response;
  }

  get = (url: string, options: Partial<InjectOptions> = {}) =>
    this.request({ ...options, method: 'GET', url });
  post = (url: string, payload?: unknown, options: Partial<InjectOptions> & { csrf?: boolean } = {}) =>
    this.request({ ...options, method: 'POST', url, payload: payload as InjectOptions['payload'] });
  put = (url: string, payload?: unknown, options: Partial<InjectOptions> & { csrf?: boolean } = {}) =>
    this.request({ ...options, method: 'PUT', url, payload: payload as InjectOptions['payload'] });
  delete = (url: string, options: Partial<InjectOptions> & { csrf?: boolean } = {}) =>
    this.request({ ...options, method: 'DELETE', url });

  /**
   * Signs in; when the password step answers a challenge, completes the second step with a code of
   * `totpSecret` (the template's super administrator's by default), and answers that step's response.
   */
  async login(identifier: string, password: string, totpSecret?: string): Promise<LightMyRequestResponse> {
    let response = await this.post('/api/auth/auth-session/login', { identifier, password });
    const challenge = response.statusCode === 200 ? response.json().data?.challenge : undefined;
    if (typeof challenge === 'string') {
      const secret = totpSecret ?? ADMIN_TOTP_SECRET;
      await forgetUsedCodes(this.app, identifier);
      response = await this.post('/api/auth/auth-session/two-factor', { challenge, code: totpCode(secret) });
    }
    if (response.statusCode === 200) this.userId = response.headers['x-user-id'] as string;
    return response;
  }
}

/** The current code of an authenticator secret. */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp });
}

/**
 * Sealed text (encryptSecret's `v1.iv.tag.ciphertext`) with one bit of its ciphertext flipped. Editing
 * a base64url character is not enough: the last one may carry only padding bits, which decode away.
 */
export function withFlippedBit(sealed: string): string {
  const parts = sealed.split('.');
  const ciphertext = Buffer.from(parts[3]!, 'base64url');
  ciphertext[0]! ^= 1;
  parts[3] = ciphertext.toString('base64url');
  return parts.join('.');
}

/**
 * Tests sign one account in many times within a code's 30 seconds, where a person would wait for the
 * next code: this forgets the steps the account has used. The replay rule itself is tested without it
 * (two-factor.test.ts).
 */
export async function forgetUsedCodes(app: FastifyInstance, identifier: string) {
  await app.deps.db.execute(sql`
    update user_totp set last_used_step = null
    where user_id in (select id from users where lower(email) = lower(${identifier}) or lower(username) = lower(${identifier}))`);
}

/**
 * Turns on two-factor sign-in for a signed-in user through the API (setup, then the first code) and
 * answers the secret and the recovery codes.
 */
export async function enrolTwoFactor(session: Session): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await session.post('/api/auth/two-factor/setup');
  if (setup.statusCode !== 200) throw new Error(`two-factor setup failed: ${setup.body}`);
  const { secret } = setup.json().data as { secret: string };
  const enabled = await session.post('/api/auth/two-factor/enable', { code: totpCode(secret) });
  if (enabled.statusCode !== 200) throw new Error(`two-factor enable failed: ${enabled.body}`);
  return { secret, recoveryCodes: enabled.json().data.recoveryCodes as string[] };
}

export async function signIn(
  app: FastifyInstance,
  identifier = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
  totpSecret?: string,
): Promise<Session> {
  const session = new Session(app);
  const response = await session.login(identifier, password, totpSecret);
  if (response.statusCode !== 200) throw new Error(`sign-in failed for ${identifier}: ${response.body}`);
  return session;
}

export async function roleIdByName(ctx: TestContext, name: string = SYSTEM_ROLES.admin): Promise<string> {
  const [role] = await ctx.database.db.select({ id: roles.id }).from(roles).where(eq(roles.name, name));
  return role!.id;
}

/** Creates an active user with a password directly in the database (for setting up a scenario). */
export async function createUserDirect(
  ctx: TestContext,
  input: {
    email: string;
    username?: string;
    roleId: string;
    organizationId: string;
    password?: string;
    isActive?: boolean;
  },
): Promise<string> {
  const hasher = createPasswordHasher(TEST_HASH_COST);
  const [row] = await ctx.database.db
    .insert(users)
    .values({
      email: input.email,
      username: input.username ?? input.email.split('@')[0]!,
      roleId: input.roleId,
      organizationId: input.organizationId,
      isActive: input.isActive ?? true,
      passwordHash: await hasher.hash(input.password ?? STRONG_PASSWORD),
    })
    .returning({ id: users.id });
  return row!.id;
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}

export async function createOrganizationDirect(ctx: TestContext, name: string): Promise<string> {
  const { organizations } = await import('../src/db/schema/index.js');
  const [row] = await ctx.database.db
    .insert(organizations)
    .values({ name })
    .returning({ id: organizations.id });
  return row!.id;
}

/**
 * Tables a refused request may still write: the rate-limit counters and sessions of sign-in. `users`
 * is fingerprinted without its sign-in counters (failed attempts, lock).
 */
const VOLATILE_TABLES = new Set(['rate_limit_buckets', 'sessions', 'users']);
const USERS_STABLE_COLUMNS =
  'id, organization_id, role_id, username, email, full_name, mobile_no, client, is_admin, is_active, password_hash, password_changed_at, profile_image_file_id';

/**
 * A function answering a fingerprint of every table's content, to prove that a refused request
 * changed nothing: compare one taken before with one taken after.
 */
export async function tableFingerprint(ctx: TestContext): Promise<() => Promise<string>> {
  const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;
  const result = await ctx.database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' and tablename not like '__drizzle%'`,
  );
  const names = (rowsOf(result) as { tablename: string }[])
    .map((r) => r.tablename)
    .filter((t) => !VOLATILE_TABLES.has(t));
  const hash = (name: string, from: string) =>
    `select '${name}' as name, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${from} x`;
  const query = [
    ...names.map((t) => hash(t, `"${t}"`)),
    hash('users', `(select ${USERS_STABLE_COLUMNS} from users)`),
  ].join(' union all ');
  return async () => {
    // Work a request left running (a mail's delivery) settles before the tables are read.
    await ctx.app.deps.jobs.settled();
    const rows = rowsOf(await ctx.database.db.execute(sql.raw(query))) as { name: string; h: string }[];
    return rows.map((r) => `${r.name}:${r.h}`).join(',');
  };
}

/**
 * Spies on Argon2id verifications (until vi.restoreAllMocks): when each one ran, in the order they
 * started (`end` is NaN while running), and the most that have run at once since.
 */
export function watchVerifications() {
  const verify = argon2.verify.bind(argon2);
  const runs: { start: number; end: number }[] = [];
  let running = 0;
  let most = 0;
  vi.spyOn(argon2, 'verify').mockImplementation(async (...args) => {
    const run = { start: performance.now(), end: NaN };
    runs.push(run);
    most = Math.max(most, ++running);
    try {
      return await verify(...args);
    } finally {
      running--;
      run.end = performance.now();
    }
  });
  return { runs, mostAtOnce: () => most };
}
