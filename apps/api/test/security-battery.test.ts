import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { isApiRoute, type RouteAccessRecord } from '../src/plugins/access.js';
import {
  createTestApp,
  LONG_MODE,
  signIn,
  tableFingerprint,
  type Session,
  type TestContext,
} from './harness.js';
import { multipartBody, PDF_BYTES } from './upload-fixtures.js';

/**
 * The security battery (issue 7): every state-changing route meets bad CSRF and hostile bodies.
 * Fast and seeded in the test command; `npm run test:long` runs 1,000 fuzz cases per route.
 */
const FUZZ_RUNS = LONG_MODE ? 1_000 : 10;
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

/**
 * Issue 20: text PostgreSQL cannot store (U+0000) and text that is not text (a lone surrogate), in
 * every string field of every body and every query and path parameter, from the OpenAPI document.
 */
const UNSTORABLE = ['nul\u0000byte', '\u0000', 'lone\ud800high', 'lone\udc00low', 'x'.repeat(100) + '\udfff'];

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** Every path to a string in a schema, as the key list to reach it (array items as index 0). */
function stringPaths(
  schema: JsonSchema | undefined,
  at: (string | number)[] = [],
  depth = 0,
): (string | number)[][] {
  if (!schema || depth > 6) return [];
  const types = [schema.type ?? []].flat();
  const found: (string | number)[][] = types.includes('string') ? [at] : [];
  for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    found.push(...stringPaths(variant, at, depth + 1));
  for (const [key, child] of Object.entries(schema.properties ?? {}))
    found.push(...stringPaths(child, [...at, key], depth + 1));
  if (schema.items) found.push(...stringPaths(schema.items, [...at, 0], depth + 1));
  return found;
}

function bodyWith(path: (string | number)[], value: string): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return typeof head === 'number' ? [bodyWith(rest, value)] : { [head!]: bodyWith(rest, value) };
}

interface Operation {
  method: string;
  path: string;
  body?: JsonSchema;
  query: string[];
}

async function operations(): Promise<Operation[]> {
  const doc = (await ctx.app.inject({ url: '/api/docs/json' })).json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content?: Record<string, { schema: JsonSchema }> };
          parameters?: { in: string; name: string }[];
        }
      >
    >;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path: path.replace(/\{[A-Za-z]+\}/g, () => randomUUID()),
      body: op.requestBody?.content?.['application/json']?.schema,
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
    })),
  );
}

describe('text the database cannot store, in every field', () => {
  it('answers 400 with one clear message for every string field, query and path parameter, and changes nothing', async () => {
    // The fuzzing above may have signed `root` out (it posts to logout too).
    const root = await signIn(ctx.app);
    // The interview product's routes take an API key instead of a session; every request carries one.
    const created = await root.post('/api/auth/api-keys', { name: 'Battery' });
    expect(created.statusCode, created.body).toBe(201);
    const authorization = `Bearer ${created.json().data.key as string}`;
    const before = await snapshot();
    const ops = await operations();
    let bodyCases = 0;
    let queryCases = 0;
    for (const op of ops) {
      const paths = stringPaths(op.body);
      for (const path of paths) {
        for (const text of UNSTORABLE) {
          const res = await root.request({
            method: op.method as 'POST',
            url: op.path,
            payload: JSON.stringify(bodyWith(path, text)),
            headers: { 'content-type': 'application/json', authorization },
          });
          const label = `${op.method} ${op.path} body.${path.join('.')} ${JSON.stringify(text).slice(0, 30)}`;
          expect(res.statusCode, label).toBe(400);
          expect(res.json().message, label).toBe(messages.http.unstorableText);
          bodyCases++;
        }
      }
      for (const name of op.query) {
        for (const encoded of ['%00', 'a%00b', '%ED%A0%80']) {
          const res = await root.request({
            method: op.method as 'GET',
            url: `${op.path}?${name}=${encoded}`,
          });
          const label = `${op.method} ${op.path}?${name}=${encoded}`;
          expect(res.statusCode, label).toBeLessThan(500);
          // %ED%A0%80 is not UTF-8: the parser makes it U+FFFD, which is storable text.
          if (encoded.includes('%00')) {
            expect(res.statusCode, label).toBe(400);
            expect(res.json().message, label).toBe(messages.http.unstorableText);
          }
          queryCases++;
        }
      }
    }
    // A NUL in a path parameter, on every route that has one.
    for (const route of ctx.app.routeAccess.filter((r) => isApiRoute(r.url) && r.url.includes('/:'))) {
      const url = route.url.replace(/:[A-Za-z]+/g, 'id%00x');
      const res = await root.request({
        method: route.method as 'GET',
        url,
        payload: route.method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, `${route.method} ${url}`).toBe(400);
    }
    expect(bodyCases).toBeGreaterThan(100);
    expect(queryCases).toBeGreaterThan(50);
    expect(await snapshot()).toBe(before);
  }, 300_000);

  it('answers the same before sign-in: sign-in and forgot-password', async () => {
    for (const url of ['/api/auth/auth-session/login', '/api/auth/forgot-password']) {
      for (const text of UNSTORABLE) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          payload: JSON.stringify({ identifier: text, email: text, password: text }),
          headers: { 'content-type': 'application/json' },
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().message).toBe(messages.http.unstorableText);
      }
    }
  });
});

/** Multipart bodies a browser would never send, on every route that takes uploads. */
function malformedMultipart(): { name: string; contentType: string; body: string }[] {
  const b = 'battery-boundary';
  const field = `--${b}\r\nContent-Disposition: form-data; name="message"\r\n\r\nhello\r\n`;
  const file = `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 abc`;
  return [
    { name: 'no boundary', contentType: 'multipart/form-data', body: `${field}--${b}--\r\n` },
    {
      name: 'another boundary',
      contentType: 'multipart/form-data; boundary=other',
      body: `${field}--${b}--\r\n`,
    },
    { name: 'truncated field', contentType: `multipart/form-data; boundary=${b}`, body: field.slice(0, 40) },
    { name: 'truncated file', contentType: `multipart/form-data; boundary=${b}`, body: file },
    { name: 'no final boundary', contentType: `multipart/form-data; boundary=${b}`, body: field },
    { name: 'garbage', contentType: `multipart/form-data; boundary=${b}`, body: 'garbage\r\n\r\n' },
  ];
}

describe('malformed multipart on every upload route', () => {
  it('answers 400 saying the form could not be read, and changes nothing', async () => {
    const root = await signIn(ctx.app);
    const uploads = ctx.app.routeAccess.filter((r) => r.consumes.includes('multipart/form-data'));
    expect(uploads.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'POST /api/auth/imports/organizations',
      'POST /api/auth/imports/organizations/columns',
      'POST /api/auth/imports/positions',
      'POST /api/auth/imports/positions/columns',
      'POST /api/auth/imports/users',
      'POST /api/auth/imports/users/columns',
      'POST /api/auth/support/tickets',
      'PUT /api/auth/profile/image',
    ]);
    const before = await snapshot();
    for (const route of uploads) {
      for (const variant of malformedMultipart()) {
        const res = await root.request({
          method: route.method as 'POST',
          url: route.url,
          payload: variant.body,
          headers: { 'content-type': variant.contentType },
        });
        const label = `${route.method} ${route.url}: ${variant.name}`;
        expect(res.statusCode, label).toBe(400);
        expect(res.json().message, label).toBe(messages.http.malformedUpload);
      }
      // A multipart field is UTF-8 bytes, where a lone surrogate cannot be written: NUL is the case.
      for (const text of UNSTORABLE.filter((t) => t.includes('\u0000'))) {
        const { payload, headers } = multipartBody({ message: text, type: 'feedback' });
        const res = await root.request({ method: route.method as 'POST', url: route.url, payload, headers });
        expect(res.statusCode, `${route.url} field ${JSON.stringify(text).slice(0, 20)}`).toBe(400);
        expect(res.json().message).toBe(messages.http.unstorableText);
      }
      // Two files where one is taken: the answer says so (it used to say "larger than 5 MB").
      const two = multipartBody({ message: 'two files' }, { name: 'a.pdf', data: PDF_BYTES });
      const boundary = two.headers['content-type'].split('boundary=')[1]!;
      const twoFiles = Buffer.concat([
        two.payload.subarray(0, two.payload.length - `--${boundary}--\r\n`.length),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file2"; filename="b.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        PDF_BYTES,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await root.request({
        method: route.method as 'POST',
        url: route.url,
        payload: twoFiles,
        headers: two.headers,
      });
      expect(res.statusCode, `${route.url} two files`).toBe(400);
      expect(res.json().message).toBe(messages.http.oneFileOnly);
    }
    expect(await snapshot()).toBe(before);
  });
});
