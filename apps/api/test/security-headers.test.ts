import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type Session, type TestContext } from './harness.js';
import { multipartBody, PNG_BYTES } from './upload-fixtures.js';

/**
 * Issue 20, item 5: security headers on every kind of answer (page, asset, JSON, error, file, export,
 * the API docs), for an http and an https public address.
 */
const webDist = mkdtempSync(join(tmpdir(), 'portal-headers-web-'));
mkdirSync(join(webDist, 'assets'));
writeFileSync(
  join(webDist, 'index.html'),
  '<!doctype html><div id="root"></div><script type="module" src="/assets/app-1.js"></script>',
);
writeFileSync(join(webDist, 'assets', 'app-1.js'), 'console.log(1);');
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

interface Answer {
  kind: string;
  res: LightMyRequestResponse;
}

/** One answer of every kind the portal gives. */
async function everyKindOfAnswer(ctx: TestContext): Promise<Answer[]> {
  const root: Session = await signIn(ctx.app);
  const image = multipartBody({}, { name: 'me.png', data: PNG_BYTES });
  const uploaded = await root.put('/api/auth/profile/image', image.payload, { headers: image.headers });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const fileUrl = uploaded.json().data.profileImage as string;
  const answers: Answer[] = [
    { kind: 'page', res: await ctx.app.inject({ url: '/' }) },
    { kind: 'page (client route)', res: await ctx.app.inject({ url: '/dashboard/usermanagement' }) },
    { kind: 'asset', res: await ctx.app.inject({ url: '/assets/app-1.js' }) },
    { kind: 'JSON (public)', res: await ctx.app.inject({ url: '/api/health' }) },
    { kind: 'JSON (signed in)', res: await root.get('/api/auth/auth-session/me') },
    {
      kind: 'JSON 400',
      res: await ctx.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: {} }),
    },
    { kind: 'JSON 401', res: await ctx.app.inject({ url: '/api/auth/auth-session/me' }) },
    { kind: 'JSON 404', res: await ctx.app.inject({ url: '/api/nope' }) },
    { kind: 'file', res: await root.get(fileUrl) },
    { kind: 'users export', res: await root.get('/api/auth/users/export') },
    { kind: 'tickets export (csv)', res: await root.get('/api/auth/support/tickets/export?format=csv') },
    { kind: 'API docs', res: await ctx.app.inject({ url: '/api/docs' }) },
  ];
  for (const { kind, res } of answers) expect(res.statusCode, kind).toBeLessThan(500);
  return answers;
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('security headers over http (development)', () => {
  let ctx: TestContext;
  let answers: Answer[];
  beforeAll(async () => {
    ctx = await createTestApp({}, { serveWeb: true, env: { WEB_DIST_DIR: webDist } });
    answers = await everyKindOfAnswer(ctx);
  });
  afterAll(() => ctx.close());

  it('every answer: nosniff, no framing, a referrer policy that keeps URLs on the site', () => {
    for (const { kind, res } of answers) {
      expect(res.headers['x-content-type-options'], kind).toBe('nosniff');
      expect(res.headers['x-frame-options'], kind).toBe('DENY');
      expect(res.headers['referrer-policy'], kind).toBe('same-origin');
      const csp = directives(String(res.headers['content-security-policy']));
      expect(csp.get('frame-ancestors'), kind).toEqual(["'none'"]);
      // No HSTS for an http address: it would pin a name that has no https.
      expect(res.headers['strict-transport-security'], kind).toBeUndefined();
    }
  });

  it('pages run only the site’s own scripts: no inline or eval', () => {
    for (const { kind, res } of answers.filter((a) => a.kind.startsWith('page') || a.kind === 'API docs')) {
      const csp = directives(String(res.headers['content-security-policy']));
      expect(csp.get('script-src'), kind).toEqual(["'self'"]);
      expect(csp.get('default-src'), kind).toEqual(["'self'"]);
      expect(csp.get('object-src'), kind).toEqual(["'none'"]);
      expect(csp.get('base-uri'), kind).toEqual(["'self'"]);
      expect(csp.get('form-action'), kind).toEqual(["'self'"]);
      expect(csp.has('upgrade-insecure-requests'), kind).toBe(false);
    }
  });

  it('JSON answers load nothing and frame nothing, should one be opened as a page', () => {
    for (const { kind, res } of answers.filter((a) => a.kind.startsWith('JSON'))) {
      const csp = directives(String(res.headers['content-security-policy']));
      expect(csp.get('default-src'), kind).toEqual(["'none'"]);
      expect(res.headers['cross-origin-resource-policy'], kind).toBe('same-origin');
    }
  });

  it('a stored file can run nothing, even opened directly', () => {
    const file = answers.find((a) => a.kind === 'file')!.res;
    const csp = directives(String(file.headers['content-security-policy']));
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.has('sandbox')).toBe(true);
  });

  it('no API answer is kept by a cache: JSON, errors, files and exports', () => {
    for (const { kind, res } of answers.filter((a) => !a.kind.startsWith('page') && a.kind !== 'asset')) {
      if (kind === 'API docs') continue;
      expect(res.headers['cache-control'], kind).toBe('no-store');
    }
    // Hashed assets keep their long cache; the page itself is revalidated.
    expect(answers.find((a) => a.kind === 'asset')!.res.headers['cache-control']).toMatch(/immutable/);
  });
});

describe('security headers under an https PUBLIC_URL', () => {
  let ctx: TestContext;
  let answers: Answer[];
  beforeAll(async () => {
    ctx = await createTestApp(
      {},
      { serveWeb: true, env: { WEB_DIST_DIR: webDist, PUBLIC_URL: 'https://portal.example.com' } },
    );
    answers = await everyKindOfAnswer(ctx);
  });
  afterAll(() => ctx.close());

  it('every answer carries HSTS, and pages upgrade any http subresource', () => {
    for (const { kind, res } of answers) {
      expect(res.headers['strict-transport-security'], kind).toBe('max-age=31536000; includeSubDomains');
    }
    const page = answers.find((a) => a.kind === 'page')!.res;
    expect(directives(String(page.headers['content-security-policy'])).has('upgrade-insecure-requests')).toBe(
      true,
    );
  });
});

describe('the policy when Razorpay takes payments', () => {
  it('lets Checkout load its script and frame, and nothing else from outside', async () => {
    const ctx = await createTestApp(
      {},
      { env: { PAYMENT_PROVIDER: 'razorpay', RAZORPAY_KEY_ID: 'rzp_test_x', RAZORPAY_KEY_SECRET: 'secret' } },
    );
    try {
      const res = await ctx.app.inject({ url: '/api/docs' });
      const csp = directives(String(res.headers['content-security-policy']));
      expect(csp.get('script-src')).toEqual(["'self'", 'https://checkout.razorpay.com']);
      expect(csp.get('frame-src')).toEqual(['https://api.razorpay.com', 'https://checkout.razorpay.com']);
    } finally {
      await ctx.close();
    }
  });
});
