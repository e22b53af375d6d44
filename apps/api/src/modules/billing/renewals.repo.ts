import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { OPEN_RENEWAL_STATUSES, type RenewalView } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { billingPlans, organizations, renewals } from '../../db/schema/index.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';

export type PlanRow = typeof billingPlans.$inferSelect;
export type RenewalRow = typeof renewals.$inferSelect;
export type RenewalInsert = typeof renewals.$inferInsert;

/** Creates the organization's plan, or replaces its terms and anchor (a new subscription set up by the operator). */
export async function upsertPlan(db: Db, values: typeof billingPlans.$inferInsert): Promise<PlanRow> {
  const { organizationId: _id, createdAt: _created, ...terms } = values;
  const [row] = await db
    .insert(billingPlans)
    .values(values)
    .onConflictDoUpdate({ target: billingPlans.organizationId, set: { ...terms, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

export async function findPlan(db: Db, organizationId: string, lock = false): Promise<PlanRow | null> {
  const query = db.select().from(billingPlans).where(eq(billingPlans.organizationId, organizationId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The plan whose mandate is this provider token, locked (a token webhook). */
export async function findPlanByMandateToken(db: Db, token: string): Promise<PlanRow | null> {
  const [row] = await db
    .select()
    .from(billingPlans)
    .where(eq(billingPlans.mandateToken, token))
    .for('update');
  return row ?? null;
}

export async function updatePlan(
  db: Db,
  organizationId: string,
  set: Partial<Omit<typeof billingPlans.$inferInsert, 'organizationId'>>,
): Promise<PlanRow> {
  const [row] = await db
    .update(billingPlans)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(billingPlans.organizationId, organizationId))
    .returning();
  return row!;
}

/** Plans renewing automatically whose next period starts by `by`: the run's work list. */
export async function plansToSchedule(db: Db, by: Date, limit: number): Promise<PlanRow[]> {
  return db
    .select()
    .from(billingPlans)
    .where(
      and(
        eq(billingPlans.autoRenew, true),
        sql`${billingPlans.status} <> 'suspended'`,
        lte(billingPlans.nextPeriodStart, by),
      ),
    )
    .orderBy(billingPlans.nextPeriodStart)
    .limit(limit);
}

/** Inserts a period's renewal unless that period has one; null when another run opened it first. */
export async function insertRenewal(db: Db, values: RenewalInsert): Promise<RenewalRow | null> {
  const [row] = await db.insert(renewals).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function findRenewal(db: Db, id: string, scope: string | null): Promise<RenewalRow | null> {
  const [row] = await db
    .select()
    .from(renewals)
    .where(and(eq(renewals.id, id), scope ? eq(renewals.organizationId, scope) : undefined));
  return row ?? null;
}

export async function lockRenewal(db: Db, id: string): Promise<RenewalRow | null> {
  const [row] = await db.select().from(renewals).where(eq(renewals.id, id)).for('update');
  return row ?? null;
}

export async function updateRenewal(
  db: Db,
  id: string,
  set: Partial<Omit<RenewalInsert, 'id' | 'organizationId' | 'period'>>,
): Promise<RenewalRow> {
  const [row] = await db
    .update(renewals)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(renewals.id, id))
    .returning();
  return row!;
}

/**
 * Takes a due debit for charging until `leaseUntil`: a notified or failed renewal whose attempt time
 * has come, or one left `charging` whose lease ran out (its process stopped, or its answer is awaited:
 * it is asked again with the same receipt). Null when not due or another process holds it.
 */
export async function claimDueCharge(
  db: Db,
  id: string,
  now: Date,
  leaseUntil: Date,
): Promise<RenewalRow | null> {
  const [row] = await db
    .update(renewals)
    .set({ status: 'charging', chargeLeaseUntil: leaseUntil, updatedAt: sql`now()` })
    .where(and(eq(renewals.id, id), isDueCharge(now)))
    .returning();
  return row ?? null;
}

function isDueCharge(now: Date) {
  return and(
    inArray(renewals.status, ['notified', 'failed', 'charging']),
    lte(renewals.nextAttemptAt, now),
    or(isNull(renewals.chargeLeaseUntil), lte(renewals.chargeLeaseUntil, now)),
  );
}

/** Debits whose attempt time has come (ids only: each is charged by its own job). */
export async function dueCharges(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .select({ id: renewals.id })
    .from(renewals)
    .where(isDueCharge(now))
    .orderBy(renewals.nextAttemptAt);
  return rows.map((r) => r.id);
}

/** Scheduled renewals whose period starts by `by`: their notices go out now. */
export async function renewalsToAnnounce(db: Db, by: Date): Promise<string[]> {
  const rows = await db
    .select({ id: renewals.id })
    .from(renewals)
    .where(and(eq(renewals.status, 'scheduled'), lte(renewals.periodStart, by)))
    .orderBy(renewals.periodStart);
  return rows.map((r) => r.id);
}

/** Open renewals whose period has ended unpaid become `lapsed`; answers how many. */
export async function lapseEndedRenewals(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(renewals)
    .set({ status: 'lapsed', nextAttemptAt: null, updatedAt: sql`now()` })
    .where(and(inArray(renewals.status, [...OPEN_RENEWAL_STATUSES]), lte(renewals.periodEnd, now)))
    .returning({ id: renewals.id });
  return rows.length;
}

export async function latestRenewals(db: Db, organizationId: string, limit: number): Promise<RenewalRow[]> {
  return db
    .select()
    .from(renewals)
    .where(eq(renewals.organizationId, organizationId))
    .orderBy(desc(renewals.period))
    .limit(limit);
}

/** Marks the organization's renewals in `statuses` skipped (automatic renewal turned off). */
export async function skipOpenRenewals(
  db: Db,
  organizationId: string,
  statuses: readonly RenewalRow['status'][],
): Promise<number> {
  const rows = await db
    .update(renewals)
    .set({ status: 'skipped', nextAttemptAt: null, updatedAt: sql`now()` })
    .where(and(eq(renewals.organizationId, organizationId), inArray(renewals.status, [...statuses])))
    .returning({ id: renewals.id });
  return rows.length;
}

/** What each view of the operator's Renewals list holds (packages/shared RENEWAL_VIEWS). */
function viewFilter(view: RenewalView): SQL | undefined {
  switch (view) {
    case 'due':
      return or(
        inArray(renewals.status, ['scheduled', 'notified', 'charging']),
        and(eq(renewals.status, 'failed'), isNotNull(renewals.nextAttemptAt)),
      );
    case 'pending':
      return inArray(renewals.status, ['awaiting_authentication', 'awaiting_payment']);
    case 'failed':
      return and(eq(renewals.status, 'failed'), isNull(renewals.nextAttemptAt));
    case 'lapsed':
      return eq(renewals.status, 'lapsed');
    case 'all':
      return undefined;
  }
}

/** A page of renewals with their organization's name: soonest first while open, newest first else. */
export async function listRenewalRows(
  db: Db,
  query: PageQuery & { view: RenewalView; organizationId: string | null },
): Promise<{ rows: (RenewalRow & { organizationName: string })[]; total: number }> {
  const where = and(
    viewFilter(query.view),
    query.organizationId ? eq(renewals.organizationId, query.organizationId) : undefined,
  );
  const order =
    query.view === 'due' || query.view === 'pending'
      ? [asc(renewals.periodStart), asc(renewals.id)]
      : [desc(renewals.periodStart), desc(renewals.id)];
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({ renewal: renewals, organizationName: organizations.name })
      .from(renewals)
      .innerJoin(organizations, eq(organizations.id, renewals.organizationId))
      .where(where)
      .orderBy(...order)
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ total: count() }).from(renewals).where(where),
  ]);
  return {
    rows: rows.map((r) => ({ ...r.renewal, organizationName: r.organizationName })),
    total: totalRow?.total ?? 0,
  };
}

/** Renewals owed: waiting for the customer or declined, past their period's start. */
const owed = (now: Date) =>
  and(
    inArray(renewals.status, ['awaiting_payment', 'awaiting_authentication', 'failed']),
    lte(renewals.periodStart, now),
  );

/** What the organization owes now, in paise. */
export async function owedPaise(db: Db, organizationId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${renewals.amountPaise}), 0)::int` })
    .from(renewals)
    .where(and(eq(renewals.organizationId, organizationId), owed(now)));
  return Number(row?.total ?? 0);
}

/**
 * Active plans owing a renewal that is past its start and no longer retried become past due; answers
 * their organizations. A declined debit still to be retried does not count yet.
 */
export async function markPastDue(db: Db, now: Date): Promise<string[]> {
  const owing = db
    .select({ id: renewals.organizationId })
    .from(renewals)
    .where(
      and(
        eq(renewals.organizationId, billingPlans.organizationId),
        lte(renewals.periodStart, now),
        or(
          inArray(renewals.status, ['awaiting_payment', 'awaiting_authentication']),
          and(eq(renewals.status, 'failed'), isNull(renewals.nextAttemptAt)),
        ),
      ),
    );
  const rows = await db
    .update(billingPlans)
    .set({ status: 'past_due', pastDueSince: now, updatedAt: sql`now()` })
    .where(and(eq(billingPlans.status, 'active'), sql`exists (${owing})`))
    .returning({ organizationId: billingPlans.organizationId });
  return rows.map((r) => r.organizationId);
}

/** Plans past due since `before` or earlier are suspended; answers their organizations. */
export async function suspendPastDue(db: Db, before: Date): Promise<string[]> {
  const rows = await db
    .update(billingPlans)
    .set({ status: 'suspended', updatedAt: sql`now()` })
    .where(and(eq(billingPlans.status, 'past_due'), lte(billingPlans.pastDueSince, before)))
    .returning({ organizationId: billingPlans.organizationId });
  return rows.map((r) => r.organizationId);
}

/** Scheduled (not yet announced) renewals of the organization take the plan's new terms. */
export async function rescheduleTerms(
  db: Db,
  organizationId: string,
  terms: { credits: number; pricePerCreditPaise: number; taxRateBp: number; amountPaise: number },
): Promise<void> {
  await db
    .update(renewals)
    .set({ ...terms, updatedAt: sql`now()` })
    .where(and(eq(renewals.organizationId, organizationId), eq(renewals.status, 'scheduled')));
}

/** The organization's announced or declined debits wait to be paid instead (its mandate is gone). */
export async function awaitPaymentInstead(db: Db, organizationId: string): Promise<void> {
  await db
    .update(renewals)
    .set({ status: 'awaiting_payment', collection: 'manual', nextAttemptAt: null, updatedAt: sql`now()` })
    .where(
      and(eq(renewals.organizationId, organizationId), inArray(renewals.status, ['notified', 'failed'])),
    );
}
