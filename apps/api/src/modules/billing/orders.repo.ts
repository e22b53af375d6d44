import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { paymentOrders } from '../../db/schema/index.js';

export type OrderRow = typeof paymentOrders.$inferSelect;

export async function insertOrder(db: Db, values: typeof paymentOrders.$inferInsert): Promise<OrderRow> {
  const [row] = await db.insert(paymentOrders).values(values).returning();
  return row!;
}

/** An order by the provider's id, confined to `scope` unless null (super_admin, webhooks). */
export async function findOrderByProviderId(
  db: Db,
  providerOrderId: string,
  scope: string | null,
): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.providerOrderId, providerOrderId),
        scope ? eq(paymentOrders.organizationId, scope) : undefined,
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Locks the order until the transaction ends: verify and webhook of one payment apply it once. */
export async function lockOrderByProviderId(db: Db, providerOrderId: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(eq(paymentOrders.providerOrderId, providerOrderId))
    .for('update');
  return row ?? null;
}

export async function updateOrder(
  db: Db,
  id: string,
  values: Partial<typeof paymentOrders.$inferInsert>,
): Promise<OrderRow> {
  const [row] = await db
    .update(paymentOrders)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(paymentOrders.id, id))
    .returning();
  return row!;
}

/** Marks an open order failed; a verified order is never touched. Returns the row when changed. */
export async function markOrderFailed(db: Db, providerOrderId: string): Promise<OrderRow | null> {
  const [row] = await db
    .update(paymentOrders)
    .set({ status: 'payment_failed', updatedAt: new Date() })
    .where(
      and(
        eq(paymentOrders.providerOrderId, providerOrderId),
        inArray(paymentOrders.status, ['order_created']),
      ),
    )
    .returning();
  return row ?? null;
}
