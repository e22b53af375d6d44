import { and, count, eq, gt, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, SUBSCRIPTION_STATUS_ACTIVE, SYSTEM_ROLES } from '@portal/shared';
import type { Db } from '../../db/client.js';
import {
  creditLedger,
  organizations,
  payments,
  roles,
  subscriptions,
  supportTickets,
  users,
} from '../../db/schema/index.js';

/**
 * Captured payments: the one set behind both money figures of the home page (docs/product.md
 * "Dashboard figures"). A manual payment is recorded CREATED once an administrator has the money;
 * an online payment is recorded CAPTURED when its signature is verified. FAILED and
 * REFUNDED rows, and a record marked not captured, are not. Of billing's PAYMENT_RECORD_STATUSES
 * (CREATED, CAPTURED, FAILED, REFUNDED).
 */
export const CAPTURED_PAYMENT_STATUSES = ['CREATED', 'CAPTURED'] as const;

function iso(d: Date): SQL {
  return sql`${d.toISOString()}::timestamptz`;
}

// A literal, not a parameter: GROUP BY must see the same expression as the select list.
const timeZone = sql.raw(`'${BUSINESS_TIME_ZONE.replace(/'/g, "''")}'`);

function monthKey(column: SQL | typeof creditLedger.createdAt): SQL<string> {
  return sql<string>`to_char(${column} at time zone ${timeZone}, 'YYYY-MM')`;
}

export async function countTenantOrganizations(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(organizations)
    .where(eq(organizations.isPlatform, false));
  return row?.n ?? 0;
}

export async function countActiveAdmins(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(roles.name, SYSTEM_ROLES.admin), eq(users.isActive, true)));
  return row?.n ?? 0;
}

/** Subscriptions in force at `now`. */
export async function countActiveSubscriptions(db: Db, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, SUBSCRIPTION_STATUS_ACTIVE),
        lte(subscriptions.validFrom, now),
        gt(subscriptions.validUntil, now),
      ),
    );
  return row?.n ?? 0;
}

/**
 * The captured payments of subscriptions, one row each: when it was paid (its payment date, else
 * when it was recorded), the amount kept (less any partial refund) and the subscription's interview
 * credits, on its first captured payment only, so a subscription paid in parts is sold once. Demo
 * trials are free and never counted; a payment linked to no subscription is in neither figure.
 * Both money figures and the revenue chart read this one set.
 */
function capturedSales(db: Db) {
  const paidAt = sql<Date>`coalesce(${payments.paymentDate}, ${payments.createdAt})`;
  const firstOfItsSubscription = sql`row_number() over (partition by ${subscriptions.id} order by ${paidAt}, ${payments.id}) = 1`;
  return db.$with('captured_sales').as(
    db
      .select({
        paidAt: paidAt.as('paid_at'),
        amountPaise: sql<number>`${payments.amountPaise} - ${payments.refundAmountPaise}`.as('amount_paise'),
        credits:
          sql<number>`case when ${firstOfItsSubscription} then ${subscriptions.totalInterviewCredits} else 0 end`.as(
            'credits',
          ),
      })
      .from(payments)
      .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
      .where(
        and(
          inArray(sql`upper(${payments.paymentStatus})`, [...CAPTURED_PAYMENT_STATUSES]),
          eq(payments.paymentCapture, true),
        ),
      ),
  );
}

export interface Sales {
  credits: number;
  revenuePaise: number;
}

/** Credits sold and revenue of the payments captured in [from, to). */
export async function salesBetween(db: Db, from: Date, to: Date): Promise<Sales> {
  const sales = capturedSales(db);
  const [row] = await db
    .with(sales)
    .select({
      credits: sql<string | number | null>`sum(${sales.credits})`,
      revenue: sql<string | number | null>`sum(${sales.amountPaise})`,
    })
    .from(sales)
    .where(and(sql`${sales.paidAt} >= ${iso(from)}`, sql`${sales.paidAt} < ${iso(to)}`));
  return { credits: Number(row?.credits ?? 0), revenuePaise: Number(row?.revenue ?? 0) };
}

/** Revenue per IST calendar month (`YYYY-MM`) from `from` on, from the same captured payments. */
export async function revenueByMonth(db: Db, from: Date): Promise<Map<string, number>> {
  const sales = capturedSales(db);
  const month = monthKey(sql`${sales.paidAt}`);
  const rows = await db
    .with(sales)
    .select({ month, n: sql<string | number>`sum(${sales.amountPaise})` })
    .from(sales)
    .where(sql`${sales.paidAt} >= ${iso(from)}`)
    .groupBy(month);
  return new Map(rows.map((r) => [r.month, Number(r.n)]));
}

/** Credits spent by the interview product, per month (usage rows are negative deltas). */
export async function creditUseByMonth(
  db: Db,
  organizationId: string,
  from: Date,
): Promise<Map<string, number>> {
  const month = monthKey(creditLedger.createdAt);
  const rows = await db
    .select({ month, n: sql<string | number>`-sum(${creditLedger.delta})` })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.organizationId, organizationId),
        eq(creditLedger.reason, 'usage'),
        gte(creditLedger.createdAt, from),
      ),
    )
    .groupBy(month);
  return new Map(rows.map((r) => [r.month, Number(r.n)]));
}

/** Tickets still Active; null organization: every organization. */
export async function countOpenTickets(db: Db, organizationId: string | null): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(supportTickets)
    .where(
      and(
        eq(supportTickets.status, 'Active'),
        organizationId ? eq(supportTickets.organizationId, organizationId) : undefined,
      ),
    );
  return row?.n ?? 0;
}

export async function creditBalance(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<string | number | null>`sum(${creditLedger.delta})` })
    .from(creditLedger)
    .where(eq(creditLedger.organizationId, organizationId));
  return Number(row?.n ?? 0);
}

/** The end of the organization's latest ACTIVE subscription (in the past if it has lapsed). */
export async function latestValidUntil(db: Db, organizationId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<string | Date | null>`max(${subscriptions.validUntil})` })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.organizationId, organizationId),
        eq(subscriptions.status, SUBSCRIPTION_STATUS_ACTIVE),
      ),
    );
  return row?.at ? new Date(row.at) : null;
}

export async function displayName(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: sql<string>`coalesce(nullif(${users.fullName}, ''), ${users.username})` })
    .from(users)
    .where(eq(users.id, userId));
  return row?.name ?? null;
}
