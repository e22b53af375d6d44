import { and, count, desc, eq, exists, inArray, isNull, notExists, or, sql } from 'drizzle-orm';
import { SUBSCRIPTION_STATUS_ACTIVE, SYSTEM_ROLES } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import { notifications, organizations, roles, subscriptions, users } from '../../db/schema/index.js';

export type NotificationKind = (typeof notifications.$inferInsert)['kind'];

export interface NotificationInput {
  kind: NotificationKind;
  title: string;
  body: string;
  link?: string | null;
  /** Set for periodic notices so each user gets them once. */
  dedupeKey?: string | null;
}

/** Notifies every active super administrator (new ticket). */
export async function notifySuperAdmins(db: Db, organizationId: string, input: NotificationInput) {
  const recipients = await db
    .select({ id: users.id, organizationId: users.organizationId })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(roles.name, SYSTEM_ROLES.superAdmin), eq(users.isActive, true)));
  await insertNotifications(
    db,
    recipients.map((r) => ({ userId: r.id, organizationId })),
    input,
  );
}

/** The active admins of an organization (the admin system role): who hears of its billing. */
export async function activeOrganizationAdmins(db: Db, organizationId: string) {
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(users.organizationId, organizationId),
        eq(roles.name, SYSTEM_ROLES.admin),
        eq(users.isActive, true),
      ),
    );
}

/** Notifies the active admins of one organization (payment verified, subscription expiring or expired). */
export async function notifyOrganizationAdmins(db: Db, organizationId: string, input: NotificationInput) {
  const recipients = await activeOrganizationAdmins(db, organizationId);
  await insertNotifications(
    db,
    recipients.map((r) => ({ userId: r.id, organizationId })),
    input,
  );
}

/** Notifies one user (the end of their import). */
export async function notifyUser(db: Db, userId: string, organizationId: string, input: NotificationInput) {
  await insertNotifications(db, [{ userId, organizationId }], input);
}

async function insertNotifications(
  db: Db,
  recipients: { userId: string; organizationId: string }[],
  input: NotificationInput,
) {
  if (recipients.length === 0) return;
  await db
    .insert(notifications)
    .values(
      recipients.map((r) => ({
        ...r,
        ...input,
        link: input.link ?? null,
        dedupeKey: input.dedupeKey ?? null,
      })),
    )
    .onConflictDoNothing();
}

// ---- Reading and marking one user's notifications ----

export type NotificationRow = typeof notifications.$inferSelect;

export async function listNotificationRows(
  db: Db,
  userId: string,
  filter: PageQuery & { unreadOnly?: boolean | undefined },
): Promise<{ rows: NotificationRow[]; total: number; unreadCount: number }> {
  const mine = eq(notifications.userId, userId);
  const where = filter.unreadOnly ? and(mine, isNull(notifications.readAt)) : mine;
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(filter.pageSize)
      .offset(offsetOf(filter)),
    db
      .select({
        total: filter.unreadOnly
          ? sql<number>`count(*) filter (where ${notifications.readAt} is null)`
          : count(),
        unread: sql<number>`count(*) filter (where ${notifications.readAt} is null)`,
      })
      .from(notifications)
      .where(mine),
  ]);
  return { rows, total: Number(totals?.total ?? 0), unreadCount: Number(totals?.unread ?? 0) };
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks one of the user's own notifications read (keeps the first read time); null if not theirs. */
export async function markNotificationRead(
  db: Db,
  userId: string,
  id: string,
  now: Date,
): Promise<NotificationRow | null> {
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now})` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning();
  return row ?? null;
}

export async function markAllNotificationsRead(db: Db, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

// ---- Subscription notices ----

export interface SubscriptionNoticeCandidate {
  subscriptionId: string;
  organizationId: string;
  validUntil: Date;
  kind: 'subscription_expiring' | 'subscription_expired';
  dedupeKey: string;
}

export function subscriptionDedupeKey(
  kind: SubscriptionNoticeCandidate['kind'],
  subscriptionId: string,
): string {
  return `${kind === 'subscription_expired' ? 'expired' : 'expiring'}:${subscriptionId}`;
}

/** billing's SUBSCRIPTION_STATUSES: ACTIVE, CANCELLED, EXPIRED. */
const SUBSCRIPTION_STATUS_EXPIRED = 'EXPIRED';

/**
 * Each tenant's latest subscription (by valid-until) that ends before `horizon` (or was set EXPIRED), when at least one
 * active admin of that organization has not had the matching notice yet. Renewing adds a later
 * subscription, which then becomes the latest, so a renewed organization gets no notice.
 */
export async function findSubscriptionNoticeCandidates(
  db: Db,
  now: Date,
  horizon: Date,
  organizationId?: string,
): Promise<SubscriptionNoticeCandidate[]> {
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  const latest = db
    .selectDistinctOn([subscriptions.organizationId], {
      id: subscriptions.id,
      organizationId: subscriptions.organizationId,
      validUntil: subscriptions.validUntil,
      status: subscriptions.status,
    })
    .from(subscriptions)
    .innerJoin(
      organizations,
      and(eq(organizations.id, subscriptions.organizationId), eq(organizations.isPlatform, false)),
    )
    .where(
      and(
        // A cancelled subscription is neither renewed nor "expired"; one set EXPIRED by hand has ended.
        inArray(subscriptions.status, [SUBSCRIPTION_STATUS_ACTIVE, SUBSCRIPTION_STATUS_EXPIRED]),
        organizationId ? eq(subscriptions.organizationId, organizationId) : undefined,
      ),
    )
    .orderBy(subscriptions.organizationId, desc(subscriptions.validUntil), desc(subscriptions.createdAt))
    .as('latest');
  const expired = sql<boolean>`(${latest.validUntil} <= ${nowAt} or ${latest.status} = ${SUBSCRIPTION_STATUS_EXPIRED})`;
  const dedupeKey = sql`(case when ${expired} then 'expired:' else 'expiring:' end) || ${latest.id}::text`;
  const adminStillToNotify = db
    .select({ one: sql`1` })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(users.organizationId, latest.organizationId),
        eq(users.isActive, true),
        eq(roles.name, SYSTEM_ROLES.admin),
        notExists(
          db
            .select({ one: sql`1` })
            .from(notifications)
            .where(and(eq(notifications.userId, users.id), sql`${notifications.dedupeKey} = ${dedupeKey}`)),
        ),
      ),
    );
  const rows = await db
    .select({
      subscriptionId: latest.id,
      organizationId: latest.organizationId,
      validUntil: latest.validUntil,
      expired,
    })
    .from(latest)
    .where(
      and(
        or(sql`${latest.validUntil} <= ${horizon.toISOString()}::timestamptz`, expired),
        exists(adminStillToNotify),
      ),
    );
  return rows.map((r) => {
    const kind = r.expired ? 'subscription_expired' : 'subscription_expiring';
    return {
      subscriptionId: r.subscriptionId,
      organizationId: r.organizationId,
      validUntil: r.validUntil,
      kind,
      dedupeKey: subscriptionDedupeKey(kind, r.subscriptionId),
    };
  });
}
