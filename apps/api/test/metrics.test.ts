import { createHmac, randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '@portal/shared';
import { listenForScrapes } from '../src/core/metrics/index.js';
import type { SandboxProvider } from '../src/core/payments/index.js';
import { emailOutbox } from '../src/db/schema/index.js';
import { onboardingBody } from '../src/modules/billing/test-helpers.js';
import { UNMATCHED_ROUTE } from '../src/plugins/metrics.js';
import { createTenant, type TestTenant } from './fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestApp,
  Session,
  signIn,
  STRONG_PASSWORD,
  type TestContext,
} from './harness.js';

let ctx: TestContext;
let root: Session;
let tenant: TestTenant;

beforeAll(async () => {
  // No job is taken, so the mails the tests queue stay in the queue for the backlog's gauges.
  ctx = await createTestApp({ jobs: { work: false } });
  root = await signIn(ctx.app);
  tenant = await createTenant(ctx, 'Metered Co');
});
afterAll(() => ctx?.close());

/**
 * The sum of a metric's samples whose labels include `labels`: `series` names a histogram's part
 * (`…_count`, `…_sum`); a counter's or gauge's samples carry the metric's own name.
 */
async function sample(
  app: TestContext['app'],
  metric: string,
  labels: Record<string, string | number> = {},
  series = metric,
): Promise<number> {
  const found = (await app.deps.metrics.registry.getMetricsAsJSON()).find((m) => m.name === metric);
  if (!found) throw new Error(`no metric ${metric}`);
  return found.values
    .filter((v) => ((v as { metricName?: string }).metricName ?? metric) === series)
    .filter((v) => Object.entries(labels).every(([k, value]) => String(v.labels[k]) === String(value)))
    .reduce((sum, v) => sum + v.value, 0);
}

const value = (metric: string, labels: Record<string, string | number> = {}, series = metric) =>
  sample(ctx.app, metric, labels, series);
const requests = (labels: Record<string, string | number>) =>
  value('portal_http_request_duration_seconds', labels, 'portal_http_request_duration_seconds_count');

/** How much each of `reads` changed while `act` ran. */
async function changes<K extends string>(
  reads: Record<K, () => Promise<number>>,
  act: () => Promise<unknown>,
): Promise<Record<K, number>> {
  const keys = Object.keys(reads) as K[];
  const before = await Promise.all(keys.map((k) => reads[k]()));
  await act();
  const after = await Promise.all(keys.map((k) => reads[k]()));
  return Object.fromEntries(keys.map((k, i) => [k, after[i]! - before[i]!])) as Record<K, number>;
}

describe('request durations', () => {
  it('are labelled by route template and status, never by an id; unknown paths share one label', async () => {
    const id = randomUUID();
    const delta = await changes(
      {
        user404: () => requests({ route: '/api/auth/users/:id', method: 'GET', status_code: 404 }),
        unmatched: () => requests({ route: UNMATCHED_ROUTE, status_code: 404 }),
      },
      async () => {
        expect((await root.get(`/api/auth/users/${id}`)).statusCode).toBe(404);
        expect((await root.get(`/api/no-such-route/${id}`)).statusCode).toBe(404);
        expect((await ctx.app.inject({ method: 'GET', url: `/${id}.php` })).statusCode).toBe(404);
      },
    );
    expect(delta).toEqual({ user404: 1, unmatched: 2 });
    const text = await ctx.app.deps.metrics.registry.metrics();
    expect(text).not.toContain(id);
    expect(text).not.toContain(tenant.organizationId);
    expect(text).not.toContain(tenant.userId);
  });

  it('time SQL statements and report the pool', async () => {
    const delta = await changes(
      {
        statements: () =>
          value('portal_db_statement_duration_seconds', {}, 'portal_db_statement_duration_seconds_count'),
        failed: () =>
          value(
            'portal_db_statement_duration_seconds',
            { outcome: 'failed' },
            'portal_db_statement_duration_seconds_count',
          ),
      },
      async () => {
        expect((await root.get('/api/auth/users?page=1&pageSize=10')).statusCode).toBe(200);
        await expect(ctx.database.db.execute('select * from no_such_table')).rejects.toThrow();
      },
    );
    expect(delta.statements).toBeGreaterThanOrEqual(2);
    expect(delta.failed).toBe(1);
    const max = ctx.database.kind === 'pglite' ? 1 : 10;
    expect(await value('portal_db_pool_max_connections')).toBe(max);
    expect(await value('portal_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(await value('portal_db_pool_connections')).toBeLessThanOrEqual(max);
    expect(await value('portal_db_pool_waiting_requests')).toBe(0);
  });
});

describe('sign-ins', () => {
  const signIns = (outcome: string) => () => value('portal_sign_ins_total', { outcome });
  const reads = {
    succeeded: signIns('succeeded'),
    refused: signIns('refused'),
    locked: signIns('locked'),
    locks: () => value('portal_sign_in_locks_total'),
  };
  const login = (password: string) =>
    new Session(ctx.app).post('/api/auth/auth-session/login', { identifier: tenant.email, password });

  it('count each outcome, and the failure that locks the account once', async () => {
    const delta = await changes(reads, async () => {
      expect((await login(STRONG_PASSWORD)).statusCode).toBe(200);
      // The test app locks an account after 5 failures from one address.
      for (let i = 0; i < 5; i++) expect((await login('wrong-password')).statusCode).toBe(401);
      expect((await login(STRONG_PASSWORD)).statusCode).toBe(401);
    });
    expect(delta).toEqual({ succeeded: 1, refused: 5, locked: 1, locks: 1 });
  });

  it('count a wrong second-factor code at sign-in and in the settings', async () => {
    const session = new Session(ctx.app);
    const delta = await changes(
      {
        signIn: () => value('portal_second_factor_failures_total', { step: 'sign_in' }),
        settings: () => value('portal_second_factor_failures_total', { step: 'settings' }),
      },
      async () => {
        const first = await session.post('/api/auth/auth-session/login', {
          identifier: ADMIN_EMAIL,
          password: ADMIN_PASSWORD,
        });
        const challenge = first.json().data.challenge as string;
        const second = await session.post('/api/auth/auth-session/two-factor', { challenge, code: '000000' });
        expect(second.statusCode).toBe(401);
        const other = await createTenant(ctx, 'Enrolling Co');
        expect((await other.session.post('/api/auth/two-factor/setup')).statusCode).toBe(200);
        const enable = await other.session.post('/api/auth/two-factor/enable', { code: '000000' });
        expect(enable.statusCode).toBe(400);
      },
    );
    expect(delta).toEqual({ signIn: 1, settings: 1 });
  });

  it('count the attempts refused by the per-address limit', async () => {
    const limited = await createTestApp({ limits: { loginPerAddress: 1 } });
    try {
      const attempt = () =>
        new Session(limited.app).post('/api/auth/auth-session/login', {
          identifier: 'nobody@example.com',
          password: 'wrong-password',
        });
      expect((await attempt()).statusCode).toBe(401);
      expect((await attempt()).statusCode).toBe(429);
      expect(await sample(limited.app, 'portal_sign_ins_total', { outcome: 'throttled' })).toBe(1);
      expect(await sample(limited.app, 'portal_sign_ins_total', { outcome: 'refused' })).toBe(1);
    } finally {
      await limited.close();
    }
  });
});

describe('the business', () => {
  const captured = (channel: string) => () => value('portal_payments_captured_total', { channel });
  const paise = (channel: string) => () => value('portal_payments_captured_paise_total', { channel });
  const sold = (channel: string) => () => value('portal_credits_sold_total', { channel });

  it('counts an onboarding paid by transfer and its refund once, however often they are retried', async () => {
    const onboardingKey = randomUUID();
    const body = onboardingBody({ withPayment: true });
    let paymentId = '';
    const onboarded = await changes(
      { payments: captured('manual'), paise: paise('manual'), credits: sold('subscription') },
      async () => {
        for (let i = 0; i < 2; i++) {
          const res = await root.post('/api/auth/onboarding', body, {
            headers: { [IDEMPOTENCY_HEADER]: onboardingKey },
          });
          expect(res.statusCode, res.body).toBe(201);
          paymentId = res.json().data.payment.id as string;
        }
      },
    );
    expect(onboarded).toEqual({ payments: 1, paise: 1_180_000, credits: 100 });

    const refundKey = randomUUID();
    const refunded = await changes(
      { refunds: () => value('portal_refunds_total'), paise: () => value('portal_refunds_paise_total') },
      async () => {
        for (let i = 0; i < 2; i++) {
          const res = await root.post(
            `/api/auth/payments/${paymentId}/refunds`,
            { amountPaise: 295_000, reason: 'Customer asked' },
            { headers: { [IDEMPOTENCY_HEADER]: refundKey } },
          );
          expect(res.statusCode, res.body).toBe(201);
        }
      },
    );
    expect(refunded).toEqual({ refunds: 1, paise: 295_000 });
  });

  it('counts an online purchase once, through the checkout or the webhook', async () => {
    const order = async (credits: number) => {
      const res = await tenant.session.post('/api/admin/payment/order', { credits });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.order as { providerOrderId: string; amountPaise: number };
    };
    const checkoutOrder = await order(10);
    const webhookOrder = await order(3);
    const secret = (ctx.app.deps.payments as SandboxProvider).webhookSecret;
    const delta = await changes(
      {
        checkout: captured('checkout'),
        checkoutPaise: paise('checkout'),
        webhook: captured('webhook'),
        credits: sold('online'),
      },
      async () => {
        const paid = await tenant.session.post('/api/admin/payment/sandbox/pay', {
          razorpay_order_id: checkoutOrder.providerOrderId,
        });
        for (let i = 0; i < 2; i++) {
          const verified = await tenant.session.post('/api/admin/payment/verify', paid.json().data);
          expect(verified.statusCode, verified.body).toBe(200);
        }
        const raw = JSON.stringify({
          event: 'payment.captured',
          payload: {
            payment: {
              entity: {
                id: 'pay_MetricsHook01',
                order_id: webhookOrder.providerOrderId,
                amount: webhookOrder.amountPaise,
              },
            },
          },
        });
        const signature = createHmac('sha256', secret).update(raw).digest('hex');
        for (const eventId of ['evt_Metrics00001', 'evt_Metrics00002']) {
          const res = await ctx.app.inject({
            method: 'POST',
            url: '/api/admin/payment/webhook',
            payload: raw,
            headers: {
              'content-type': 'application/json',
              'x-razorpay-signature': signature,
              'x-razorpay-event-id': eventId,
            },
          });
          expect(res.statusCode, res.body).toBe(200);
        }
      },
    );
    expect(delta).toEqual({ checkout: 1, checkoutPaise: checkoutOrder.amountPaise, webhook: 1, credits: 13 });
  });

  it('counts credits used through an API key once per reference', async () => {
    const key = (await tenant.session.post('/api/auth/api-keys', { name: 'Bot' })).json().data.key as string;
    const use = (reference: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/credits/use',
        payload: { credits: 2, reference },
        headers: { authorization: `Bearer ${key}` },
      });
    const delta = await changes({ used: () => value('portal_credits_used_total') }, async () => {
      for (const reference of ['interview-1', 'interview-1', 'interview-2']) {
        expect((await use(reference)).statusCode).toBe(200);
      }
    });
    expect(delta).toEqual({ used: 4 });
  });

  it('starts every labelled business series at zero, renewals included', async () => {
    const text = await ctx.app.deps.metrics.registry.metrics();
    for (const series of [
      'portal_renewals_charged_total',
      'portal_renewals_failed_total{reason="declined"}',
      'portal_renewals_failed_total{reason="error"}',
      'portal_payments_captured_total{channel="renewal"}',
      'portal_credits_sold_total{channel="renewal"}',
    ]) {
      expect(text).toMatch(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} \\d+$`, 'm'));
    }
  });
});

describe('shared state', () => {
  it('reports the mail outbox backlog and the queues, read from the database', async () => {
    const mail = { kind: 'password_reset' as const, to: 'someone@example.com', subject: 'S', text: 'T' };
    await ctx.app.deps.mailer.enqueue(ctx.database.db, mail);
    // No worker takes jobs in this file: every mail queued so far still waits.
    const [pending] = await ctx.database.db
      .select({ n: count() })
      .from(emailOutbox)
      .where(eq(emailOutbox.status, 'pending'));
    expect(pending!.n).toBeGreaterThan(0);
    expect(await value('portal_mail_outbox_backlog')).toBe(pending!.n);
    expect(await value('portal_job_queue_jobs', { queue: 'mail.deliver', state: 'created' })).toBe(
      pending!.n,
    );
    const oldest = await value('portal_job_queue_oldest_ready_seconds', { queue: 'mail.deliver' });
    expect(oldest).toBeGreaterThan(0);
    expect(oldest).toBeLessThan(600);

    // An idle queue is a series at 0 in every state, not a missing one.
    const gauge = (await ctx.app.deps.metrics.registry.getMetricsAsJSON()).find(
      (m) => m.name === 'portal_job_queue_jobs',
    );
    const idle = gauge!.values.filter((v) => v.labels.queue === 'platform.housekeeping');
    expect(idle.map((v) => [v.labels.state, v.value]).sort()).toEqual([
      ['active', 0],
      ['created', 0],
      ['failed', 0],
      ['retry', 0],
    ]);
  });
});

describe('the scrape port', () => {
  it('answers GET /metrics in the exposition format and 404 to anything else', async () => {
    const scrapes = await listenForScrapes(ctx.app.deps.metrics.registry, { port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(scrapes.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
      const text = await res.text();
      expect(text).toContain('# TYPE portal_http_request_duration_seconds histogram');
      expect(text).toMatch(/^portal_mail_outbox_backlog \d+$/m);
      expect((await fetch(scrapes.url.replace('/metrics', '/api/health'))).status).toBe(404);
      expect((await fetch(scrapes.url, { method: 'POST' })).status).toBe(404);
    } finally {
      await scrapes.close();
    }
  });
});
