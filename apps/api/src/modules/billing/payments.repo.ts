import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import { payments } from '../../db/schema/index.js';

export type PaymentRow = typeof payments.$inferSelect;

export async function insertPayment(db: Db, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(values).returning();
  return row!;
}

export async function findPayment(db: Db, id: string, scope: string | null): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), scope ? eq(payments.organizationId, scope) : undefined))
    .limit(1);
  return row ?? null;
}

/** The payment row, locked until the transaction ends, so two refunds of it run one after the other. */
export async function lockPayment(db: Db, id: string, scope: string | null): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), scope ? eq(payments.organizationId, scope) : undefined))
    .for('update');
  return row ?? null;
}

/** Adds a refund to the payment's running total; fully refunded, its status becomes REFUNDED. */
export async function recordPaymentRefund(
  db: Db,
  payment: PaymentRow,
  refund: { amountPaise: number; refundId: string; at: Date },
): Promise<PaymentRow> {
  const refunded = payment.refundAmountPaise + refund.amountPaise;
  const [row] = await db
    .update(payments)
    .set({
      refundAmountPaise: refunded,
      refundDate: refund.at,
      refundId: refund.refundId,
      ...(refunded === payment.amountPaise ? { paymentStatus: 'REFUNDED' } : {}),
      updatedAt: refund.at,
    })
    .where(eq(payments.id, payment.id))
    .returning();
  return row!;
}

export async function setPaymentSubscription(db: Db, id: string, subscriptionId: string): Promise<void> {
  await db.update(payments).set({ subscriptionId, updatedAt: new Date() }).where(eq(payments.id, id));
}

/** A manual payment of the organization recorded under this transaction reference. */
export async function findPaymentByReference(
  db: Db,
  organizationId: string,
  reference: string,
): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.organizationId, organizationId), eq(payments.manualReferenceNumber, reference)))
    .limit(1);
  return row ?? null;
}

export async function findPaymentByProviderId(db: Db, providerPaymentId: string): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(eq(payments.providerPaymentId, providerPaymentId))
    .limit(1);
  return row ?? null;
}

export async function listPaymentRows(
  db: Db,
  organizationId: string | null,
  page: PageQuery,
): Promise<{ rows: PaymentRow[]; total: number }> {
  const where: SQL | undefined = organizationId ? eq(payments.organizationId, organizationId) : undefined;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(page.pageSize)
      .offset(offsetOf(page)),
    db.select({ total: count() }).from(payments).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}
