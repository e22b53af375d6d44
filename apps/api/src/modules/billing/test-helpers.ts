import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  computeAmounts,
  IDEMPOTENCY_HEADER,
  type FeatureKey,
  type OnboardingBody,
  type Scope,
} from '@portal/shared';
import { createRole, createTenant } from '../../../test/fixtures.js';
import { roleIdByName, type Session, type TestContext } from '../../../test/harness.js';
import { creditLedger, payments, renewals } from '../../db/schema/index.js';

/** Test scaffolding shared by the billing suites (not used by the app). */

export const BILLING_TABLES = [
  'organizations',
  'users',
  'one_time_tokens',
  'email_outbox',
  'subscriptions',
  'payments',
  'payment_orders',
  'credit_ledger',
  'activity_entries',
  'notifications',
  'idempotency_keys',
  'webhook_events',
  'api_keys',
  'invoices',
  'credit_notes',
  'document_counters',
] as const;
export type TableCounts = Record<(typeof BILLING_TABLES)[number], number>;

export async function countRows(ctx: TestContext): Promise<TableCounts> {
  const entries = await Promise.all(
    BILLING_TABLES.map(async (table) => {
      const result = await ctx.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
      const rows = (result as unknown as { rows: { n: number }[] }).rows;
      return [table, Number(rows[0]!.n)] as const;
    }),
  );
  return Object.fromEntries(entries) as TableCounts;
}

export function terms(credits = 100, pricePaise = 10_000, taxRateBp = 1_800, demoTrials = 2) {
  const a = computeAmounts({ credits, pricePerCreditPaise: pricePaise, taxRateBp });
  return {
    totalInterviewCredits: credits,
    interviewCreditsPricePaise: pricePaise,
    taxRateBp,
    subTotalPaise: a.subTotalPaise,
    totalAmountPaise: a.totalAmountPaise,
    taxAmountPaise: a.taxAmountPaise,
    grandTotalAmountPaise: a.grandTotalPaise,
    demoTrials,
  };
}

export function onboardingBody(
  options: { withPayment?: boolean; credits?: number; demoTrials?: number } = {},
): OnboardingBody {
  const tag = randomUUID().slice(0, 8);
  return {
    user: {
      username: `acme.${tag}`,
      email: `admin.${tag}@acme.test`,
      mobileNo: '9876543210',
      client: `Acme ${tag}`,
      organizationId: randomUUID(),
    },
    subscription: terms(options.credits ?? 100, 10_000, 1_800, options.demoTrials ?? 2),
    ...(options.withPayment
      ? {
          payment: {
            transactionId: `  UTR-${tag}  `,
            paymentMethod: 'bank_transfer',
            paymentDate: '2025-01-15',
            remarks: '',
          },
        }
      : {}),
  };
}

/** A tenant organization with one admin (the admin system role), signed in. */
export async function tenantAdmin(
  ctx: TestContext,
  name: string,
): Promise<{ orgId: string; session: Session }> {
  const tenant = await createTenant(ctx, name);
  return { orgId: tenant.organizationId, session: tenant.session };
}

/** A user of `orgId` whose custom role holds exactly `grants`. */
export async function userWithGrants(
  ctx: TestContext,
  orgId: string,
  grants: Partial<Record<FeatureKey, Scope[]>>,
): Promise<Session> {
  const roleId = await createRole(ctx, orgId, `custom-${randomUUID().slice(0, 8)}`, grants);
  return (await createTenant(ctx, 'custom', { organizationId: orgId, roleId })).session;
}

/** Makes every INSERT or UPDATE on `table` fail, as a crash between two steps would. */
export async function injectFault(ctx: TestContext, table: string, operation: 'INSERT' | 'UPDATE') {
  await ctx.database.db.execute(
    sql.raw(`create or replace function billing_test_fault() returns trigger language plpgsql as $$
      begin raise exception 'injected fault on %', tg_table_name; end $$`),
  );
  await ctx.database.db.execute(
    sql.raw(
      `create trigger billing_test_fault before ${operation} on ${table} for each row execute function billing_test_fault()`,
    ),
  );
  return async () => {
    await ctx.database.db.execute(sql.raw(`drop trigger billing_test_fault on ${table}`));
  };
}

/** An organization's renewals, by period. */
export function renewalsOf(ctx: TestContext, orgId: string) {
  return ctx.database.db
    .select()
    .from(renewals)
    .where(eq(renewals.organizationId, orgId))
    .orderBy(renewals.period);
}

export function capturedPayments(ctx: TestContext, orgId: string) {
  return ctx.database.db
    .select()
    .from(payments)
    .where(and(eq(payments.organizationId, orgId), eq(payments.paymentStatus, 'CAPTURED')));
}

/** The sum of an organization's credit ledger. */
export async function balanceOf(ctx: TestContext, orgId: string) {
  const [row] = await ctx.database.db
    .select({ sum: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int` })
    .from(creditLedger)
    .where(eq(creditLedger.organizationId, orgId));
  return Number(row!.sum);
}

/** Calendar months after `from` (the plans in tests start mid-month, so no day is clamped). */
export function monthAfter(from: Date, months = 1) {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

export interface OnboardedOrg {
  orgId: string;
  /** A signed-in admin of the organization. */
  admin: Session;
  /** When its plan started: the renewals count months from here. */
  anchor: Date;
}

/** Onboards an organization through the operator's screen (its plan starts now) with a signed-in admin. */
export async function onboardWithAdmin(
  ctx: TestContext,
  operator: Session,
  options: { credits?: number; autoRenew?: boolean } = {},
): Promise<OnboardedOrg> {
  const body = {
    ...onboardingBody({ credits: options.credits ?? 100 }),
    autoRenew: options.autoRenew ?? true,
  };
  const res = await operator.post('/api/auth/onboarding', body, {
    headers: { [IDEMPOTENCY_HEADER]: randomUUID() },
  });
  if (res.statusCode !== 201) throw new Error(`onboarding answered ${res.statusCode}: ${res.body}`);
  const orgId = res.json().data.user.organizationId as string;
  const tenant = await createTenant(ctx, 'renewals', {
    organizationId: orgId,
    roleId: await roleIdByName(ctx),
  });
  return { orgId, admin: tenant.session, anchor: new Date(res.json().data.subscription.validFrom) };
}
