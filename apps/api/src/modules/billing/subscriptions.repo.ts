import { and, count, desc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { subscriptions } from '../../db/schema/index.js';

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
  page: { limit: number; offset: number },
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
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(subscriptions).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

/** The active subscription valid at `now` that ends last; null when none. */
export async function findCurrentSubscription(
  db: Db,
  organizationId: string,
  now: Date,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.organizationId, organizationId),
        eq(subscriptions.status, 'ACTIVE'),
        lte(subscriptions.validFrom, now),
        gt(subscriptions.validUntil, now),
      ),
    )
    .orderBy(desc(subscriptions.validUntil))
    .limit(1);
  return row ?? null;
}

/** The latest end date among the organization's active subscriptions (renewals start from it). */
export async function latestActiveValidUntil(db: Db, organizationId: string): Promise<Date | null> {
  const [row] = await db
    .select({ until: sql<Date | null>`max(${subscriptions.validUntil})`.mapWith(subscriptions.validUntil) })
    .from(subscriptions)
    .where(and(eq(subscriptions.organizationId, organizationId), eq(subscriptions.status, 'ACTIVE')));
  return row?.until ?? null;
}
