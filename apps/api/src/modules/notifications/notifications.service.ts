import {
  formatDate,
  messages,
  SUBSCRIPTION_EXPIRY_WARNING_DAYS,
  subscriptionExpiredBody,
  subscriptionExpiringBody,
  type NotificationListQuery,
  type PortalNotification,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import {
  countUnread,
  findSubscriptionNoticeCandidates,
  listNotificationRows,
  markAllNotificationsRead,
  markNotificationRead,
  notifyOrganizationAdmins,
  type NotificationRow,
} from './notifications.repo.js';

const DAY_MS = 86_400_000;
/** Where a tenant admin renews: the billing screen, as the payment-verified notice links it. */
export const RENEW_LINK = '/dashboard/billing';

export function toNotificationDto(row: NotificationRow): PortalNotification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    read: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Tells each tenant's admins, once, that their subscription ends within 7 days or has ended.
 * Idempotent (the dedupe key `expiring:<id>` / `expired:<id>` is unique per user), so any number
 * of processes may run it at once. `organizationId` narrows it to one tenant (the lazy run).
 */
export async function sweepSubscriptionNotices(
  db: Db,
  now: Date,
  options: { organizationId?: string } = {},
): Promise<number> {
  const horizon = new Date(now.getTime() + SUBSCRIPTION_EXPIRY_WARNING_DAYS * DAY_MS);
  const candidates = await findSubscriptionNoticeCandidates(db, now, horizon, options.organizationId);
  for (const c of candidates) {
    const date = formatDate(c.validUntil);
    const expired = c.kind === 'subscription_expired';
    await notifyOrganizationAdmins(db, c.organizationId, {
      kind: c.kind,
      title: expired ? messages.notifications.expiredTitle : messages.notifications.expiringTitle,
      body: expired ? subscriptionExpiredBody(date) : subscriptionExpiringBody(date),
      link: RENEW_LINK,
      dedupeKey: c.dedupeKey,
    });
  }
  return candidates.length;
}

/** A cheap catch-up for the caller's own organization, so a notice never waits for the hourly run. */
async function sweepOwn(db: Db, auth: Actor, now: Date) {
  if (auth.isSuperAdmin) return;
  await sweepSubscriptionNotices(db, now, { organizationId: auth.organizationId });
}

export async function listOwnNotifications(db: Db, auth: Actor, query: NotificationListQuery) {
  await sweepOwn(db, auth, new Date());
  const { rows, total, unreadCount } = await listNotificationRows(db, auth.userId, query);
  return { items: rows.map(toNotificationDto), total, unreadCount };
}

export async function ownUnreadCount(db: Db, auth: Actor): Promise<number> {
  await sweepOwn(db, auth, new Date());
  return countUnread(db, auth.userId);
}

export async function markOwnRead(db: Db, auth: Actor, id: string): Promise<PortalNotification> {
  const row = await markNotificationRead(db, auth.userId, id, new Date());
  if (!row) throw notFound(messages.notifications.notFound);
  return toNotificationDto(row);
}

export async function markAllOwnRead(db: Db, auth: Actor): Promise<number> {
  return markAllNotificationsRead(db, auth.userId, new Date());
}
