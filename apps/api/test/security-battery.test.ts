import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiRoute, type RouteAccessRecord } from '../src/plugins/access.js';
import { createTestApp, signIn, tableFingerprint, type Session, type TestContext } from './harness.js';

/**
 * The security battery (issue 7): every state-changing route meets bad CSRF and hostile bodies.
 * Fast and seeded in the test command; SECURITY_LONG=1 runs 1,000 fuzz cases per route.
 */
const LONG = process.env.SECURITY_LONG === '1';
const FUZZ_RUNS = LONG ? 1_000 : 10;
const SEED = 20_261_122;

let ctx: TestContext;
let root: Session;
let writeRoutes: RouteAccessRecord[];
/** A fingerprint of every table, to prove a refused request changed nothing. */
let snapshot: () => Promise<string>;

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  writeRoutes = ctx.app.routeAccess.filter(
    (r) =>
      isApiRoute(r.url) &&
      !['GET', 'HEAD', 'OPTIONS'].includes(r.method) &&
      r.access?.kind !== 'public' &&
      r.access?.kind !== 'apiKey',
  );
  snapshot = await tableFingerprint(ctx);
});
afterAll(() => ctx.close());

function concretePath(url: string): string {
  return url.replace(/:[A-Za-z]+/g, () => randomUUID());
}

describe('CSRF on every state-changing route', () => {
  it('has state-changing routes to check', () => {
    expect(writeRoutes.length).toBeGreaterThan(10);
  });

  it('refuses a missing, wrong or foreign token, a foreign Origin and a cross-site fetch with 403, changing nothing', async () => {
    const other = await signIn(ctx.app);
    const before = await snapshot();
    let cases = 0;
    for (const route of writeRoutes) {
      const url = concretePath(route.url);
      const variants: { csrf?: boolean; headers?: Record<string, string> }[] = [
        { csrf: false },
        { headers: { 'x-csrf-token': 'forged' } },
        { headers: { 'x-csrf-token': other.csrf! } },
        { headers: { origin: 'https://attacker.example' } },
        { headers: { 'sec-fetch-site': 'cross-site' } },
      ];
      for (const variant of variants) {
        const res = await root.request({ method: route.method as 'POST', url, payload: {}, ...variant });
        expect(res.statusCode, `${route.method} ${route.url} ${JSON.stringify(variant)}`).toBe(403);
        cases++;
      }
    }
    expect(await snapshot()).toBe(before);
    expect(cases).toBe(writeRoutes.length * 5);
  });

  it('refuses every state-changing route after logout', async () => {
    const session = await signIn(ctx.app);
    const csrf = session.csrf!;
    const cookies = Object.fromEntries(session.cookies);
    expect((await session.post('/api/auth/auth-session/logout')).statusCode).toBe(200);
    const before = await snapshot();
    for (const route of writeRoutes) {
      const res = await ctx.app.inject({
        method: route.method as 'POST',
        url: concretePath(route.url),
        cookies,
        headers: { 'x-csrf-token': csrf },
        payload: {},
      });
      expect([401, 403], `${route.method} ${route.url}`).toContain(res.statusCode);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('a state-changing action sent as GET', () => {
  it('is never performed: no success unless a read answers that path, and nothing changed', async () => {
    const readable = new Set(ctx.app.routeAccess.filter((r) => r.method === 'GET').map((r) => r.url));
    const before = await snapshot();
    let cases = 0;
    for (const route of writeRoutes) {
      // The action's usual fields as a query string, as a link or an image tag would send them.
      const query = new URLSearchParams({ name: 'via-get', email: 'via-get@example.com', credits: '5' });
      const res = await root.get(`${concretePath(route.url)}?${query}`);
      const label = `GET ${route.url} (${route.method}): ${res.statusCode}`;
      expect(res.statusCode, label).toBeLessThan(500);
      // Only a read route of the same path may answer 2xx (the roles list for POST /api/auth/roles).
      if (!readable.has(route.url)) expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
      cases++;
    }
    expect(await snapshot()).toBe(before);
    expect(cases).toBe(writeRoutes.length);
  });
});

/** Hostile JSON: wrong types, oversized and unicode strings, prototype keys, deep nesting. */
const hostileValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.string({ unit: 'grapheme', maxLength: 50 }),
    fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '\u202e',
      '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
      "' OR 1=1 --",
      '<script>alert(1)</script>',
      'x'.repeat(5_000),
      '=cmd|/C calc!A0',
    ),
    fc.integer(),
    fc.double(),
    fc.constantFrom(-1, 0, 2 ** 31, Number.MAX_SAFE_INTEGER),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        'id',
        'name',
        'email',
        'organizationId',
        'roleId',
        'credits',
        'permissions',
      ),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

describe('fuzzed bodies on every state-changing route', () => {
  it(`never answer 5xx or leak a stack, and a refused request changes nothing (${FUZZ_RUNS} cases per route)`, async () => {
    let total = 0;
    let baseline = await snapshot();
    for (const route of writeRoutes) {
      await fc.assert(
        fc.asyncProperty(hostileValue, fc.boolean(), async (body, raw) => {
          const payload = raw ? JSON.stringify(body).replace(/"/, '') : JSON.stringify(body ?? null);
          const res = await root.request({
            method: route.method as 'POST',
            url: concretePath(route.url),
            payload,
            headers: { 'content-type': 'application/json' },
          });
          total++;
          expect(res.statusCode, `${route.method} ${route.url} ${payload.slice(0, 200)}`).toBeLessThan(500);
          expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
          const after = await snapshot();
          if (res.statusCode >= 400)
            expect(after, `${route.method} ${route.url} changed data`).toBe(baseline);
          baseline = after;
        }),
        { numRuns: FUZZ_RUNS, seed: SEED },
      );
    }
    expect(total).toBe(writeRoutes.length * FUZZ_RUNS);
  }, 600_000);
});
