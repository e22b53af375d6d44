import { and, asc, count, desc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import { payments, subscriptions } from '../../db/schema/index.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

export async function insertSubscription(
  db: Db,
  values: typeof subscriptions.$inferInsert,
): Promise<SubscriptionRow> {
  const [row] = await db.insert(subscriptions).values(values).returning();
  return row!;
}

/** A subscription, confined to `scope` (an organization id) unless scope is null (super_admin). */
export async function findSubscription(
  db: Db,
  id: string,
  scope: string | null,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, id), scope ? eq(subscriptions.organizationId, scope) : undefined))
    .limit(1);
  return row ?? null;
}

export async function updateSubscriptionRow(
  db: Db,
  id: string,
  values: Partial<typeof subscriptions.$inferInsert>,
): Promise<SubscriptionRow> {
  const [row] = await db
    .update(subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(subscriptions.id, id))
    .returning();
  return row!;
}

export async function listSubscriptionRows(
  db: Db,
  organizationId: string | null,
  page: PageQuery,
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  const where: SQL | undefined = organizationId
    ? eq(subscriptions.organizationId, organizationId)
    : undefined;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(subscriptions)
      .where(where)
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
      .limit(page.pageSize)
      .offset(offsetOf(page)),
    db.select({ total: count() }).from(subscriptions).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

/** How many periods bought ahead the billing screen lists. */
export const UPCOMING_LIMIT = 12;

/**
 * The organization's ACTIVE subscriptions that have not ended at `now`: the one running now (among
 * those in force, the one that started first; a period bought ahead starts when it ends) and those
 * that run past it, soonest first (at most UPCOMING_LIMIT).
 */
export async function findCurrentAndUpcoming(
  db: Db,
  organizationId: string,
  now: Date,
): Promise<{ current: SubscriptionRow | null; upcoming: SubscriptionRow[] }> {
  const rows = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.organizationId, organizationId),
        eq(subscriptions.status, 'ACTIVE'),
        gt(subscriptions.validUntil, now),
      ),
    )
    .orderBy(asc(subscriptions.validFrom), asc(subscriptions.validUntil), asc(subscriptions.id))
    .limit(UPCOMING_LIMIT + 1);
  const current = rows.find((r) => r.validFrom <= now) ?? null;
  const upcoming = rows
    .filter((r) => r !== current && (!current || r.validUntil > current.validUntil))
    .slice(0, UPCOMING_LIMIT);
  return { current, upcoming };
}

/** The latest end date among the organization's active subscriptions (renewals start from it). */
export async function latestActiveValidUntil(db: Db, organizationId: string): Promise<Date | null> {
  const [row] = await db
    .select({ until: sql<Date | null>`max(${subscriptions.validUntil})`.mapWith(subscriptions.validUntil) })
    .from(subscriptions)
    .where(and(eq(subscriptions.organizationId, organizationId), eq(subscriptions.status, 'ACTIVE')));
  return row?.until ?? null;
}

/**
 * The organization's subscriptions running at `at` with a captured or recorded payment, and that
 * payment: what a plan cancelled now refunds a share of.
 */
export async function paidSubscriptionsRunningAt(db: Db, organizationId: string, at: Date) {
  return db
    .select({ subscription: subscriptions, payment: payments })
    .from(subscriptions)
    .innerJoin(payments, eq(payments.id, subscriptions.paymentId))
    .where(
      and(
        eq(subscriptions.organizationId, organizationId),
        lte(subscriptions.validFrom, at),
        gt(subscriptions.validUntil, at),
        eq(payments.paymentCapture, true),
      ),
    );
}
