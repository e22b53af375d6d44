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
import type { Actor, SystemActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import * as repo from './notifications.repo.js';
import type { NotificationInput, NotificationRow } from './notifications.repo.js';

const DAY_MS = 86_400_000;
/** Where a tenant admin renews: the billing screen, as the payment-verified notice links it. */
export const RENEW_LINK = '/dashboard/billing';

/** A notice about one organization: what it says, and which organization it concerns. */
export type OrganizationNotice = NotificationInput & { organizationId: string };

function toNotificationDto(row: NotificationRow): PortalNotification {
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
 * Notifies the active admins of one organization (payment verified, invoice issued, refund,
 * subscription expiring or expired). In the caller's transaction when handed `withDb(deps, tx)`.
 */
export async function notifyOrganizationAdmins(
  deps: Deps,
  _actor: Actor | SystemActor,
  input: OrganizationNotice,
): Promise<void> {
  const { organizationId, ...notice } = input;
  await repo.notifyOrganizationAdmins(deps.db, organizationId, notice);
}

/** Notifies one user of something they started (their import ended). In the caller's transaction. */
export async function notifyUser(
  deps: Deps,
  _actor: Actor | SystemActor,
  input: OrganizationNotice & { userId: string },
): Promise<void> {
  const { organizationId, userId, ...notice } = input;
  await repo.notifyUser(deps.db, userId, organizationId, notice);
}

/** Notifies every active super administrator of something in an organization (a new ticket). */
export async function notifySuperAdmins(
  deps: Deps,
  _actor: Actor | SystemActor,
  input: OrganizationNotice,
): Promise<void> {
  const { organizationId, ...notice } = input;
  await repo.notifySuperAdmins(deps.db, organizationId, notice);
}

/** The active admins of an organization (the admin system role): who hears of its billing. */
export async function activeOrganizationAdmins(
  deps: Deps,
  _actor: Actor | SystemActor,
  input: { organizationId: string },
): Promise<{ id: string; email: string }[]> {
  return repo.activeOrganizationAdmins(deps.db, input.organizationId);
}

/**
 * Tells each tenant's admins, once, that their subscription ends within 7 days or has ended.
 * Idempotent (the dedupe key `expiring:<id>` / `expired:<id>` is unique per user), so any number
 * of processes may run it at once. `organizationId` narrows it to one tenant (the lazy run).
 */
async function sweep(db: Db, now: Date, organizationId?: string): Promise<number> {
  const horizon = new Date(now.getTime() + SUBSCRIPTION_EXPIRY_WARNING_DAYS * DAY_MS);
  const candidates = await repo.findSubscriptionNoticeCandidates(db, now, horizon, organizationId);
  for (const c of candidates) {
    const date = formatDate(c.validUntil);
    const expired = c.kind === 'subscription_expired';
    await repo.notifyOrganizationAdmins(db, c.organizationId, {
      kind: c.kind,
      title: expired ? messages.notifications.expiredTitle : messages.notifications.expiringTitle,
      body: expired ? subscriptionExpiredBody(date) : subscriptionExpiringBody(date),
      link: RENEW_LINK,
      dedupeKey: c.dedupeKey,
    });
  }
  return candidates.length;
}

/** The scheduled run over every tenant (`sweep`); returns how many subscriptions were noticed. */
export async function sweepSubscriptionNotices(
  deps: Deps,
  _actor: SystemActor,
  input: { now: Date },
): Promise<number> {
  return sweep(deps.db, input.now);
}

/** A cheap catch-up for the caller's own organization, so a notice never waits for the hourly run. */
async function sweepOwn(db: Db, actor: Actor, now: Date) {
  if (actor.isSuperAdmin) return;
  await sweep(db, now, actor.organizationId);
}

export async function listOwnNotifications(deps: Deps, actor: Actor, query: NotificationListQuery) {
  await sweepOwn(deps.db, actor, new Date());
  const { rows, total, unreadCount } = await repo.listNotificationRows(deps.db, actor.userId, query);
  return { items: rows.map(toNotificationDto), total, unreadCount };
}

export async function ownUnreadCount(deps: Deps, actor: Actor): Promise<number> {
  await sweepOwn(deps.db, actor, new Date());
  return repo.countUnread(deps.db, actor.userId);
}

export async function markOwnRead(
  deps: Deps,
  actor: Actor,
  input: { id: string },
): Promise<PortalNotification> {
  const row = await repo.markNotificationRead(deps.db, actor.userId, input.id, new Date());
  if (!row) throw notFound(messages.notifications.notFound);
  return toNotificationDto(row);
}

export async function markAllOwnRead(deps: Deps, actor: Actor): Promise<number> {
  return repo.markAllNotificationsRead(deps.db, actor.userId, new Date());
}
