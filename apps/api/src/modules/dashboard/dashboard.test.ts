import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_MONTHS,
  istDate,
  istMonthOf,
  istMonthStart,
  messages,
  statLabels,
  type Dashboard,
} from '@portal/shared';
import { users } from '../../db/schema/index.js';
import {
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  roleIdByName,
  signIn,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { revenueByMonth, salesBetween } from './dashboard.repo.js';
import {
  addActivity,
  addLedger,
  addPayment,
  addSubscription,
  addTicket,
  createRole,
  createTenant,
  type TestTenant,
} from '../../../test/fixtures.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
let ctx: TestContext;
let root: Session;
let t1: TestTenant;
let t3: TestTenant;
let empty: TestTenant;
const now = new Date();
/** The first moment in India of the month `offset` months from the one holding `at`. */
function monthStart(at: Date, offset = 0): Date {
  const { year, month } = istMonthOf(at);
  return istMonthStart(year, month + offset);
}
const thisMonth = new Date(monthStart(now).getTime() + 60_000);
const lastMonth = new Date(monthStart(now, -1).getTime() + DAY);
const elevenAgo = new Date(monthStart(now, -11).getTime() + HOUR);
const twelveAgo = new Date(monthStart(now, -12).getTime() + HOUR);
/** The last minute of last month in India, and the first instant of this one (both the same UTC day). */
const justBefore = new Date(monthStart(now).getTime() - 60_000);
const atStart = monthStart(now);

function monthKey(d: Date): string {
  return istDate(d).slice(0, 7);
}

function stats(d: Dashboard): Record<string, unknown> {
  return Object.fromEntries(d.stats.map((s) => [s.key, s.value]));
}

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  const adminRole = await roleIdByName(ctx);

  // Three tenants. T1: two active admins and a recruiter; T2: one inactive admin; T3: one admin.
  t1 = await createTenant(ctx, 'Tenant One');
  await createTenant(ctx, 'Tenant One B', { organizationId: t1.organizationId });
  const recruiter = await createRole(ctx, t1.organizationId, 'Recruiter', { positions: ['READ'] });
  await createTenant(ctx, 'Tenant One Rec', { organizationId: t1.organizationId, roleId: recruiter });
  const t2 = await createOrganizationDirect(ctx, 'Tenant Two');
  await createUserDirect(ctx, {
    email: 't2@example.com',
    roleId: adminRole,
    organizationId: t2,
    isActive: false,
  });
  t3 = await createTenant(ctx, 'Tenant Three');

  // Subscriptions in force now: T1's current one and T3's current one (not T3's future one, not T2's lapsed one).
  const t1Current = await addSubscription(ctx, t1.organizationId, {
    validUntil: new Date(now.getTime() + 20 * DAY),
    credits: 100,
  });
  const t1Past = await addSubscription(ctx, t1.organizationId, {
    validFrom: new Date(now.getTime() - 40 * DAY),
    validUntil: new Date(now.getTime() - 10 * DAY),
    credits: 30,
  });
  await addSubscription(ctx, t1.organizationId, {
    validUntil: new Date(now.getTime() + 100 * DAY),
    status: 'CANCELLED',
    credits: 999,
  });
  const t2Lapsed = await addSubscription(ctx, t2, {
    validFrom: new Date(now.getTime() - 40 * DAY),
    validUntil: new Date(now.getTime() - 5 * DAY),
    credits: 50,
  });
  await addSubscription(ctx, t3.organizationId, {
    validUntil: new Date(now.getTime() + 5 * DAY),
    credits: 7,
  });
  const t3Future = await addSubscription(ctx, t3.organizationId, {
    validFrom: new Date(now.getTime() + 5 * DAY),
    validUntil: new Date(now.getTime() + 35 * DAY),
    credits: 40,
  });
  const pastSubscription = (credits: number) =>
    addSubscription(ctx, t3.organizationId, {
      validFrom: new Date(now.getTime() - 400 * DAY),
      validUntil: new Date(now.getTime() - 370 * DAY),
      credits,
    });
  const inParts = await pastSubscription(20);

  // The ledger grants every subscription's credits, paid or not; credits sold do not read it.
  await addLedger(ctx, t1.organizationId, 100, 'subscription', thisMonth);
  await addLedger(ctx, t1.organizationId, 999, 'subscription', thisMonth);
  await addLedger(ctx, t3.organizationId, 7, 'subscription', thisMonth);
  await addLedger(ctx, t1.organizationId, 5, 'demo_trial', thisMonth);
  await addLedger(ctx, t1.organizationId, -7, 'usage', thisMonth);
  await addLedger(ctx, t1.organizationId, -4, 'usage', lastMonth);
  await addLedger(ctx, t1.organizationId, -2, 'usage', twelveAgo);
  await addLedger(ctx, t2, 50, 'purchase', thisMonth);
  await addLedger(ctx, t2, 30, 'subscription', lastMonth);
  await addLedger(ctx, t2, 3, 'adjustment', thisMonth);

  // Captured payments this month: T1's manual ₹1,180 (100 credits), T2's online ₹590 less ₹90
  // refunded (50 credits), T3's ₹400 at the first instant of the month in India (40 credits) and the
  // second part of a subscription paid in two (₹100, its credits already sold last month): 190
  // credits, ₹2,180. T2's FAILED and REFUNDED payments, the unpaid subscriptions (T1's cancelled
  // 999 credits, T3's current 7) and a payment for no subscription count in neither figure.
  await addPayment(ctx, t1.organizationId, {
    amountPaise: 118_000,
    status: 'CREATED',
    paymentDate: thisMonth,
    subscriptionId: t1Current,
  });
  await addPayment(ctx, t2, {
    amountPaise: 59_000,
    status: 'CAPTURED',
    paymentDate: thisMonth,
    refundPaise: 9_000,
    subscriptionId: t2Lapsed,
  });
  await addPayment(ctx, t2, {
    amountPaise: 100_000,
    status: 'FAILED',
    paymentDate: thisMonth,
    subscriptionId: t2Lapsed,
  });
  await addPayment(ctx, t2, {
    amountPaise: 70_000,
    status: 'REFUNDED',
    paymentDate: thisMonth,
    refundPaise: 70_000,
    subscriptionId: t2Lapsed,
  });
  await addPayment(ctx, t3.organizationId, {
    amountPaise: 40_000,
    status: 'CAPTURED',
    paymentDate: atStart,
    subscriptionId: t3Future,
  });
  await addPayment(ctx, t3.organizationId, {
    amountPaise: 25_000,
    status: 'CAPTURED',
    paymentDate: thisMonth,
  });
  await addPayment(ctx, t3.organizationId, {
    amountPaise: 10_000,
    paymentDate: thisMonth,
    subscriptionId: inParts,
  });
  // Last month: ₹200 in its last minute in India (30 credits) and the first part (20 credits).
  await addPayment(ctx, t1.organizationId, {
    amountPaise: 20_000,
    status: 'CAPTURED',
    paymentDate: justBefore,
    subscriptionId: t1Past,
  });
  await addPayment(ctx, t3.organizationId, {
    amountPaise: 10_000,
    paymentDate: lastMonth,
    subscriptionId: inParts,
  });
  // Eleven months ago (dated by when it was recorded), and twelve, outside the chart.
  await addPayment(ctx, t3.organizationId, {
    amountPaise: 30_000,
    paymentDate: null,
    createdAt: elevenAgo,
    subscriptionId: await pastSubscription(5),
  });
  await addPayment(ctx, t3.organizationId, {
    amountPaise: 99_999,
    paymentDate: twelveAgo,
    subscriptionId: await pastSubscription(9),
  });

  // Open (Active) tickets: two in T1, one in T3; T2's is Inactive.
  await addTicket(ctx, t1.organizationId, t1.userId);
  await addTicket(ctx, t1.organizationId, t1.userId);
  await addTicket(ctx, t2, t1.userId, 'Inactive');
  await addTicket(ctx, t3.organizationId, t3.userId);

  for (let i = 0; i < 12; i++) {
    await addActivity(ctx, i % 2 === 0 ? t1.organizationId : t3.organizationId, {
      action: 'updated',
      message: `Event ${i}`,
      createdAt: new Date(now.getTime() - (12 - i) * 60_000),
    });
  }
  empty = await createTenant(ctx, 'Tenant Empty');
});
afterAll(() => ctx.close());

describe('GET /api/auth/dashboard for super_admin', () => {
  let data: Dashboard;
  beforeAll(async () => {
    const res = await root.get('/api/auth/dashboard');
    expect(res.statusCode).toBe(200);
    data = res.json().data;
  });

  it('welcomes the user by name', () => {
    expect(data.welcomeMessage).toBe('Welcome back, Super Administrator');
    expect(data.scope).toBe('platform');
  });

  it('counts from the real rows, leaving out the platform organization', () => {
    // Four tenants: T1, T2, T3 and the empty one.
    expect(stats(data)).toEqual({
      organizations: 4,
      activeAdmins: 4,
      activeSubscriptions: 2,
      creditsSoldThisMonth: 190,
      revenueThisMonth: 218_000,
      openTickets: 3,
    });
    expect(data.stats.map((s) => s.label)).toEqual([
      statLabels.organizations,
      statLabels.activeAdmins,
      statLabels.activeSubscriptions,
      statLabels.creditsSoldThisMonth,
      statLabels.revenueThisMonth,
      statLabels.openTickets,
    ]);
    expect(data.stats.find((s) => s.key === 'revenueThisMonth')!.format).toBe('paise');
  });

  it('charts revenue for the last 12 months, oldest first', () => {
    expect(data.series).toMatchObject({
      kind: 'revenue',
      title: messages.dashboard.revenueByMonth,
      format: 'paise',
    });
    const points = data.series.points;
    expect(points).toHaveLength(DASHBOARD_MONTHS);
    expect(points[11]).toEqual({ month: monthKey(now), value: 218_000 });
    expect(points[10]).toEqual({ month: monthKey(lastMonth), value: 30_000 });
    expect(points[0]).toEqual({ month: monthKey(elevenAgo), value: 30_000 });
    expect(points.reduce((sum, p) => sum + p.value, 0)).toBe(278_000);
  });

  it('lists the latest activity of every organization, newest first', () => {
    expect(data.recentActivity.map((a) => a.message)).toEqual([
      'Event 11',
      'Event 10',
      'Event 9',
      'Event 8',
      'Event 7',
      'Event 6',
      'Event 5',
      'Event 4',
    ]);
  });
});

describe('GET /api/auth/dashboard for a tenant', () => {
  it("shows the organization's own credits, validity, tickets, credit use and activity", async () => {
    await ctx.database.db.update(users).set({ fullName: 'Tara Iyer' }).where(eq(users.id, t1.userId));
    const res = await t1.session.get('/api/auth/dashboard');
    expect(res.statusCode).toBe(200);
    const data: Dashboard = res.json().data;
    expect(data.welcomeMessage).toBe('Welcome back, Tara Iyer');
    expect(data.scope).toBe('organization');
    const s = stats(data);
    expect(s.creditsLeft).toBe(100 + 999 + 5 - 7 - 4 - 2);
    expect(s.openTickets).toBe(2);
    expect(new Date(s.validUntil as string).getTime()).toBeGreaterThan(now.getTime() + 19 * DAY);
    expect(new Date(s.validUntil as string).getTime()).toBeLessThan(now.getTime() + 21 * DAY);
    expect(data.series).toMatchObject({ kind: 'creditUsage', format: 'count' });
    expect(data.series.points[11]).toEqual({ month: monthKey(now), value: 7 });
    expect(data.series.points[10]).toEqual({ month: monthKey(lastMonth), value: 4 });
    expect(data.series.points.reduce((sum, p) => sum + p.value, 0)).toBe(11);
    expect(data.recentActivity.map((a) => a.message)).toEqual([
      'Event 10',
      'Event 8',
      'Event 6',
      'Event 4',
      'Event 2',
      'Event 0',
    ]);
    expect(data.recentActivity.every((a) => a.organizationId === t1.organizationId)).toBe(true);
  });

  it('answers zeros and no date for an organization with nothing yet', async () => {
    const data: Dashboard = (await empty.session.get('/api/auth/dashboard')).json().data;
    expect(stats(data)).toEqual({ creditsLeft: 0, validUntil: null, openTickets: 0 });
    expect(data.series.points.every((p) => p.value === 0)).toBe(true);
    expect(data.recentActivity).toEqual([]);
    expect(data.welcomeMessage).toMatch(/^Welcome back, tenant-empty-/);
  });

  it('needs Dashboard READ', async () => {
    const role = await createRole(ctx, t3.organizationId, 'No Home', { positions: ['READ'] });
    const user = await createTenant(ctx, 'Tenant Three Nohome', {
      organizationId: t3.organizationId,
      roleId: role,
    });
    expect((await user.session.get('/api/auth/dashboard')).statusCode).toBe(403);
  });
});

describe('dashboard figures (docs/product.md "Dashboard figures")', () => {
  it('count a subscription in credits sold and its payment in revenue once the payment is captured, in the IST month of the payment', async () => {
    const db = ctx.database.db;
    const org = await createOrganizationDirect(ctx, 'Figures Org');
    const sample = new Date('2020-03-15T00:00:00Z');
    const [feb, mar, apr] = [monthStart(sample, -1), monthStart(sample), monthStart(sample, 1)];
    expect(mar.toISOString()).toBe('2020-02-29T18:30:00.000Z');
    const period = {
      validFrom: new Date('2020-02-20T00:00:00Z'),
      validUntil: new Date('2020-04-20T00:00:00Z'),
    };
    const paid = await addSubscription(ctx, org, { ...period, credits: 25, createdAt: mar });
    const unpaid = await addSubscription(ctx, org, { ...period, credits: 11, createdAt: mar });
    const lastMinute = await addSubscription(ctx, org, { ...period, credits: 3, createdAt: feb });

    // Set up but not paid: in neither figure.
    expect(await salesBetween(db, mar, apr)).toEqual({ credits: 0, revenuePaise: 0 });

    // 1 Mar 00:00 IST (still 29 Feb in UTC) is March; 29 Feb 23:59:59 IST is February.
    await addPayment(ctx, org, {
      amountPaise: 29_500,
      status: 'CAPTURED',
      paymentDate: new Date('2020-02-29T18:30:00Z'),
      subscriptionId: paid,
    });
    await addPayment(ctx, org, {
      amountPaise: 3_540,
      status: 'CREATED',
      paymentDate: new Date('2020-02-29T18:29:59Z'),
      subscriptionId: lastMinute,
    });
    await addPayment(ctx, org, {
      amountPaise: 12_980,
      status: 'FAILED',
      paymentDate: new Date('2020-03-05T10:00:00Z'),
      subscriptionId: unpaid,
    });

    expect(await salesBetween(db, mar, apr)).toEqual({ credits: 25, revenuePaise: 29_500 });
    expect(await salesBetween(db, feb, mar)).toEqual({ credits: 3, revenuePaise: 3_540 });
    const byMonth = await revenueByMonth(db, feb);
    expect(byMonth.get('2020-02')).toBe(3_540);
    expect(byMonth.get('2020-03')).toBe(29_500);
  });
});
