import { and, count, eq, gt, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
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
 * Payments that count as money received (docs/decisions/ "dashboard figures"): a manual payment is
 * recorded CREATED once an administrator has the money (SPEC.md §4); an online payment is recorded
 * CAPTURED when its signature is verified. FAILED and REFUNDED rows do not count, and a partial
 * refund is subtracted. Dated by payment date, else the row's creation.
 */
/** Of billing's PAYMENT_RECORD_STATUSES (CREATED, CAPTURED, FAILED, REFUNDED). */
export const RECEIVED_PAYMENT_STATUSES = ['CREATED', 'CAPTURED'] as const;
/** Credits sold: ledger grants from paid subscriptions and purchases (demo trials are free). */
export const SOLD_CREDIT_REASONS = ['subscription', 'purchase'] as const;

const paymentDate = sql`coalesce(${payments.paymentDate}, ${payments.createdAt})`;
const received = inArray(sql`upper(${payments.paymentStatus})`, [...RECEIVED_PAYMENT_STATUSES]);
const netAmount = sql`${payments.amountPaise} - ${payments.refundAmountPaise}`;

function iso(d: Date): SQL {
  return sql`${d.toISOString()}::timestamptz`;
}

// A literal, not a parameter: GROUP BY must see the same expression as the select list.
const timeZone = sql.raw(`'${BUSINESS_TIME_ZONE.replace(/'/g, "''")}'`);

function monthKey(column: SQL | typeof creditLedger.createdAt): SQL<string> {
  return sql<string>`to_char(${column} at time zone ${timeZone}, 'YYYY-MM')`;
}

const tenantOrgIds = sql`(select ${organizations.id} from ${organizations} where not ${organizations.isPlatform})`;

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

export async function creditsSold(db: Db, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<string | number | null>`sum(${creditLedger.delta})` })
    .from(creditLedger)
    .where(
      and(
        inArray(creditLedger.reason, [...SOLD_CREDIT_REASONS]),
        gt(creditLedger.delta, 0),
        gte(creditLedger.createdAt, from),
        lt(creditLedger.createdAt, to),
        sql`${creditLedger.organizationId} in ${tenantOrgIds}`,
      ),
    );
  return Number(row?.n ?? 0);
}

export async function revenue(db: Db, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<string | number | null>`sum(${netAmount})` })
    .from(payments)
    .where(and(received, sql`${paymentDate} >= ${iso(from)}`, sql`${paymentDate} < ${iso(to)}`));
  return Number(row?.n ?? 0);
}

export async function revenueByMonth(db: Db, from: Date): Promise<Map<string, number>> {
  const month = monthKey(paymentDate);
  const rows = await db
    .select({ month, n: sql<string | number>`sum(${netAmount})` })
    .from(payments)
    .where(and(received, sql`${paymentDate} >= ${iso(from)}`))
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
