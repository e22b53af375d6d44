import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import { creditLedger, organizations } from '../../db/schema/index.js';

export type LedgerRow = typeof creditLedger.$inferSelect;
export type LedgerInsert = typeof creditLedger.$inferInsert;

/**
 * Locks the organization row until the transaction ends (`SELECT … FOR UPDATE`): every change to an
 * organization's credits takes this lock first, so two concurrent uses cannot both pass the balance
 * check, and two manual payments cannot both pass the duplicate-reference check.
 */
export async function lockOrganization(db: Db, organizationId: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, isPlatform: organizations.isPlatform })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('update');
  return row ?? null;
}

/** The balance is the sum of the ledger, never a stored number. */
export async function creditBalance(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ balance: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int` })
    .from(creditLedger)
    .where(eq(creditLedger.organizationId, organizationId));
  return Number(row?.balance ?? 0);
}

/** Credits a payment bought (its subscription or purchase grants) and those its refunds took back. */
export async function creditsOfPayment(
  db: Db,
  paymentId: string,
): Promise<{ bought: number; takenBack: number }> {
  const [row] = await db
    .select({
      bought: sql<number>`coalesce(sum(${creditLedger.delta}) filter (where ${inArray(creditLedger.reason, ['subscription', 'purchase'])}), 0)::int`,
      takenBack: sql<number>`coalesce(-sum(${creditLedger.delta}) filter (where ${eq(creditLedger.reason, 'refund')}), 0)::int`,
    })
    .from(creditLedger)
    .where(eq(creditLedger.paymentId, paymentId));
  return { bought: Number(row?.bought ?? 0), takenBack: Number(row?.takenBack ?? 0) };
}

export async function insertLedgerEntries(db: Db, rows: LedgerInsert[]): Promise<LedgerRow[]> {
  if (rows.length === 0) return [];
  return db.insert(creditLedger).values(rows).returning();
}

/**
 * Inserts an entry carrying a `reference` unless the organization already has one of that reason and
 * reference (unique index `credit_ledger_org_reference`); null when it existed.
 */
export async function insertLedgerEntryOnce(db: Db, row: LedgerInsert): Promise<LedgerRow | null> {
  const [inserted] = await db.insert(creditLedger).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function findLedgerEntry(
  db: Db,
  organizationId: string,
  reason: LedgerRow['reason'],
  reference: string,
): Promise<LedgerRow | null> {
  const [row] = await db
    .select()
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.organizationId, organizationId),
        eq(creditLedger.reason, reason),
        eq(creditLedger.reference, reference),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function listLedgerEntries(
  db: Db,
  organizationId: string,
  page: PageQuery,
): Promise<{ rows: LedgerRow[]; total: number }> {
  const where = eq(creditLedger.organizationId, organizationId);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(creditLedger)
      .where(where)
      .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
      .limit(page.pageSize)
      .offset(offsetOf(page)),
    db.select({ total: count() }).from(creditLedger).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}
