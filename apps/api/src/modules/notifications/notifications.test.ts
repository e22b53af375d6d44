import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, SYSTEM_ROLES } from '@portal/shared';
import { notifications, scheduledRuns, users } from '../../db/schema/index.js';
import {
  createOrganizationDirect,
  createTestApp,
  roleIdByName,
  signIn,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { addSubscription, createRole, createTenant, type TestTenant } from '../../../test/fixtures.js';
import { systemActor } from '../../core/actor.js';
import { notifyOrganizationAdmins, notifySuperAdmins } from './index.js';
import { subscriptionNoticesJob } from './subscription-notices.job.js';
import { RENEW_LINK, sweepSubscriptionNotices } from './notifications.service.js';

const DAY = 86_400_000;
let ctx: TestContext;
let root: Session;
const system = systemActor('test');

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
});
afterAll(() => ctx.close());

async function noticesOf(userIds: string[]) {
  return ctx.database.db.select().from(notifications).where(inArray(notifications.userId, userIds));
}

describe('own notifications', () => {
  let alpha: TestTenant;
  let beta: TestTenant;
  beforeAll(async () => {
    alpha = await createTenant(ctx, 'Alpha Note');
    beta = await createTenant(ctx, 'Beta Note');
    for (let i = 0; i < 3; i++) {
      await ctx.database.db.insert(notifications).values({
        userId: alpha.userId,
        organizationId: alpha.organizationId,
        kind: 'payment_verified',
        title: `Payment ${i}`,
        body: `Body ${i}`,
        link: '/dashboard',
        createdAt: new Date(Date.parse('2025-05-01T00:00:00Z') + i * 60_000),
      });
    }
    await notifyOrganizationAdmins(ctx.app.deps, system, {
      organizationId: beta.organizationId,
      kind: 'payment_verified',
      title: 'Beta payment',
      body: 'Paid',
    });
  });

  it("lists only the caller's notifications, newest first, with the unread count", async () => {
    const res = await alpha.session.get('/api/auth/notifications');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ page: 1, pageSize: 10, total: 3, unreadCount: 3 });
    expect(body.data.map((n: { title: string }) => n.title)).toEqual(['Payment 2', 'Payment 1', 'Payment 0']);
    expect(body.data[0]).toMatchObject({
      kind: 'payment_verified',
      body: 'Body 2',
      link: '/dashboard',
      read: false,
    });

    const betaList = (await beta.session.get('/api/auth/notifications')).json();
    expect(betaList.data.map((n: { title: string }) => n.title)).toEqual(['Beta payment']);
    expect((await beta.session.get('/api/auth/notifications/unread-count')).json().data).toEqual({
      count: 1,
    });
  });

  it('pages', async () => {
    const body = (
      await alpha.session.get('/api/auth/notifications', { query: { page: '2', pageSize: '2' } })
    ).json();
    expect(body.meta).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(body.data.map((n: { title: string }) => n.title)).toEqual(['Payment 0']);
  });

  it("marks one read, keeps the first read time, and 404s another user's without changing it", async () => {
    const list = (await alpha.session.get('/api/auth/notifications')).json().data;
    const target = list[1];
    const res = await alpha.session.put(`/api/auth/notifications/${target.id}/read`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: target.id, read: true });
    const firstReadAt = res.json().data.readAt;
    expect(firstReadAt).not.toBeNull();
    const again = await alpha.session.put(`/api/auth/notifications/${target.id}/read`);
    expect(again.json().data.readAt).toBe(firstReadAt);

    const stolen = await beta.session.put(`/api/auth/notifications/${list[0].id}/read`);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().message).toBe(messages.notifications.notFound);
    const [row] = await ctx.database.db.select().from(notifications).where(eq(notifications.id, list[0].id));
    expect(row!.readAt).toBeNull();

    const unknown = await alpha.session.put(
      '/api/auth/notifications/00000000-0000-4000-8000-000000000000/read',
    );
    expect(unknown.statusCode).toBe(404);

    expect((await alpha.session.get('/api/auth/notifications/unread-count')).json().data.count).toBe(2);
    const unread = (
      await alpha.session.get('/api/auth/notifications', { query: { unreadOnly: 'true' } })
    ).json();
    expect(unread.meta).toMatchObject({ total: 2, unreadCount: 2 });
    expect(unread.data.map((n: { title: string }) => n.title)).toEqual(['Payment 2', 'Payment 0']);
  });

  it("marks all of the caller's own read and nobody else's", async () => {
    const res = await alpha.session.put('/api/auth/notifications/read-all');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ updated: 2 });
    const alphaUnread = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, alpha.userId), isNull(notifications.readAt)));
    expect(alphaUnread).toHaveLength(0);
    expect((await beta.session.get('/api/auth/notifications/unread-count')).json().data.count).toBe(1);
  });

  it('needs a session and the CSRF header', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/notifications' })).statusCode).toBe(401);
    const res = await beta.session.put('/api/auth/notifications/read-all', undefined, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect((await beta.session.get('/api/auth/notifications/unread-count')).json().data.count).toBe(1);
  });

  it('delivers new-ticket notices to every active super administrator', async () => {
    await notifySuperAdmins(ctx.app.deps, system, {
      organizationId: alpha.organizationId,
      kind: 'ticket_created',
      title: 'New ticket',
      body: 'TICKET-1',
      link: '/dashboard/support',
    });
    const list = (await root.get('/api/auth/notifications')).json();
    expect(list.data[0]).toMatchObject({
      kind: 'ticket_created',
      title: 'New ticket',
      link: '/dashboard/support',
    });
    expect((await alpha.session.get('/api/auth/notifications/unread-count')).json().data.count).toBe(0);
  });
});

describe('sweepSubscriptionNotices', () => {
  const now = new Date('2025-06-15T06:00:00Z');
  let expiring: TestTenant;
  let expiringSecondAdmin: string;
  let inactiveAdmin: string;
  let memberId: string;
  let expired: TestTenant;
  let healthy: TestTenant;
  let renewed: TestTenant;
  let expiringSub: string;
  let expiredSub: string;
  let endedByHand: TestTenant;
  let endedByHandSub: string;
  let cancelledLater: TestTenant;

  beforeAll(async () => {
    const adminRole = await roleIdByName(ctx, SYSTEM_ROLES.admin);
    expiring = await createTenant(ctx, 'Expiring Org');
    expiringSecondAdmin = (
      await createTenant(ctx, 'Expiring Two', { organizationId: expiring.organizationId })
    ).userId;
    const inactive = await createTenant(ctx, 'Expiring Off', { organizationId: expiring.organizationId });
    inactiveAdmin = inactive.userId;
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, inactiveAdmin));
    const memberRole = await createRole(ctx, expiring.organizationId, 'Recruiter', { positions: ['READ'] });
    memberId = (
      await createTenant(ctx, 'Expiring Member', {
        organizationId: expiring.organizationId,
        roleId: memberRole,
      })
    ).userId;
    expect(adminRole).toBeTruthy();
    expiringSub = await addSubscription(ctx, expiring.organizationId, {
      validFrom: new Date(now.getTime() - 27 * DAY),
      validUntil: new Date(now.getTime() + 3 * DAY),
    });

    expired = await createTenant(ctx, 'Expired Org');
    expiredSub = await addSubscription(ctx, expired.organizationId, {
      validFrom: new Date(now.getTime() - 32 * DAY),
      validUntil: new Date(now.getTime() - 2 * DAY),
    });

    healthy = await createTenant(ctx, 'Healthy Org');
    await addSubscription(ctx, healthy.organizationId, { validUntil: new Date(now.getTime() + 20 * DAY) });

    renewed = await createTenant(ctx, 'Renewed Org');
    await addSubscription(ctx, renewed.organizationId, {
      validFrom: new Date(now.getTime() - 40 * DAY),
      validUntil: new Date(now.getTime() - 10 * DAY),
    });
    await addSubscription(ctx, renewed.organizationId, {
      validFrom: new Date(now.getTime() - 10 * DAY),
      validUntil: new Date(now.getTime() + 20 * DAY),
    });

    endedByHand = await createTenant(ctx, 'Ended Org');
    endedByHandSub = await addSubscription(ctx, endedByHand.organizationId, {
      validUntil: new Date(now.getTime() + 20 * DAY),
      status: 'EXPIRED',
    });

    // A cancelled subscription does not count as a renewal.
    cancelledLater = await createTenant(ctx, 'Cancelled Org');
    await addSubscription(ctx, cancelledLater.organizationId, {
      validUntil: new Date(now.getTime() + 2 * DAY),
    });
    await addSubscription(ctx, cancelledLater.organizationId, {
      validUntil: new Date(now.getTime() + 60 * DAY),
      status: 'CANCELLED',
    });
  });

  it("tells each affected organization's active admins once, and nobody else", async () => {
    await sweepSubscriptionNotices(ctx.app.deps, system, { now });
    const expiringNotices = await noticesOf([expiring.userId, expiringSecondAdmin, inactiveAdmin, memberId]);
    expect(expiringNotices.map((n) => n.userId).sort()).toEqual(
      [expiring.userId, expiringSecondAdmin].sort(),
    );
    expect(expiringNotices.every((n) => n.kind === 'subscription_expiring')).toBe(true);
    expect(expiringNotices[0]).toMatchObject({
      dedupeKey: `expiring:${expiringSub}`,
      title: messages.notifications.expiringTitle,
      organizationId: expiring.organizationId,
    });
    expect(expiringNotices[0]!.body).toContain('18 Jun 2025');

    const expiredNotices = await noticesOf([expired.userId]);
    expect(expiredNotices).toHaveLength(1);
    expect(expiredNotices[0]).toMatchObject({
      kind: 'subscription_expired',
      dedupeKey: `expired:${expiredSub}`,
      title: messages.notifications.expiredTitle,
    });
    expect(await noticesOf([healthy.userId, renewed.userId])).toHaveLength(0);
    expect((await noticesOf([endedByHand.userId])).map((n) => n.dedupeKey)).toEqual([
      `expired:${endedByHandSub}`,
    ]);
    expect((await noticesOf([cancelledLater.userId])).map((n) => n.kind)).toEqual(['subscription_expiring']);
    expect(await noticesOf([ctx.adminId])).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ kind: 'subscription_expiring' })]),
    );
  });

  it('creates nothing more when run again, even from two processes at once', async () => {
    const count = async () => (await ctx.database.db.select().from(notifications)).length;
    const before = await count();
    await sweepSubscriptionNotices(ctx.app.deps, system, { now });
    await Promise.all([
      sweepSubscriptionNotices(ctx.app.deps, system, { now }),
      sweepSubscriptionNotices(ctx.app.deps, system, { now }),
    ]);
    expect(await count()).toBe(before);
  });

  it('sends the expired notice once the expiring subscription has ended', async () => {
    const later = new Date(now.getTime() + 4 * DAY);
    await sweepSubscriptionNotices(ctx.app.deps, system, { now: later });
    await sweepSubscriptionNotices(ctx.app.deps, system, { now: later });
    const kinds = (await noticesOf([expiring.userId])).map((n) => n.kind).sort();
    expect(kinds).toEqual(['subscription_expired', 'subscription_expiring']);
  });

  it('runs lazily for the caller when the bell asks, so no notice waits for the timer', async () => {
    const lazy = await createTenant(ctx, 'Lazy Org');
    await addSubscription(ctx, lazy.organizationId, {
      validFrom: new Date(Date.now() - 25 * DAY),
      validUntil: new Date(Date.now() + 2 * DAY),
    });
    expect((await lazy.session.get('/api/auth/notifications/unread-count')).json().data.count).toBe(1);
    const list = (await lazy.session.get('/api/auth/notifications')).json();
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({ kind: 'subscription_expiring', link: RENEW_LINK });
  });

  it('runs as a scheduled job: its slot is recorded, and a second job for the slot sends nothing', async () => {
    const org = await createOrganizationDirect(ctx, 'Timer Org');
    const admin = await createTenant(ctx, 'Timer Admin', { organizationId: org });
    await addSubscription(ctx, org, {
      validFrom: new Date(Date.now() - 40 * DAY),
      validUntil: new Date(Date.now() - DAY),
    });
    await ctx.app.deps.jobs.send(ctx.database.db, subscriptionNoticesJob, {});
    await ctx.app.deps.jobs.settled();
    const notices = await noticesOf([admin.userId]);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.kind).toBe('subscription_expired');
    const runs = await ctx.database.db
      .select()
      .from(scheduledRuns)
      .where(eq(scheduledRuns.job, subscriptionNoticesJob.name));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ outcome: 'completed', result: { noticed: expect.any(Number) } });

    await ctx.app.deps.jobs.send(ctx.database.db, subscriptionNoticesJob, {});
    await ctx.app.deps.jobs.settled();
    expect(await ctx.database.db.select().from(scheduledRuns)).toHaveLength(1);
  });
});
