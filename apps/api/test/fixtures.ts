/**
 * Scenario builders for the API suites: rows written straight to the database so each test states
 * exactly what it expects to read back (organizations, roles, signed-in tenants, subscriptions,
 * payments, ledger entries, tickets, activity).
 */
import { FEATURES, SYSTEM_ROLES, type FeatureKey, type Scope } from '@portal/shared';
import {
  activityEntries,
  creditLedger,
  payments,
  rolePermissions,
  roles,
  subscriptions,
  supportTickets,
} from '../src/db/schema/index.js';
import { systemActor } from '../src/core/actor.js';
import { withDb } from '../src/core/deps.js';
import { issueInvoice } from '../src/modules/invoices/index.js';
import { applyRefund } from '../src/modules/billing/refunds.service.js';
import {
  createOrganizationDirect,
  createUserDirect,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  type Session,
  type TestContext,
} from './harness.js';

const DAY_MS = 86_400_000;

/** A custom role of one organization with exactly the given scopes. */
export async function createRole(
  ctx: TestContext,
  organizationId: string,
  name: string,
  grants: Partial<Record<FeatureKey, Scope[]>>,
): Promise<string> {
  const [role] = await ctx.database.db
    .insert(roles)
    .values({ organizationId, name, isSystem: false })
    .returning({ id: roles.id });
  const rows = Object.entries(grants).map(([key, scopes]) => ({
    roleId: role!.id,
    featureId: FEATURES[key as FeatureKey].id,
    scopes: scopes!,
  }));
  if (rows.length > 0) await ctx.database.db.insert(rolePermissions).values(rows);
  return role!.id;
}

export interface TestTenant {
  organizationId: string;
  userId: string;
  username: string;
  email: string;
  session: Session;
}

let counter = 0;

/**
 * An organization (new unless given) with one signed-in user of the admin role (or `roleId`),
 * with an ACTIVE subscription only when `subscribed`.
 */
export async function createTenant(
  ctx: TestContext,
  name: string,
  options: { organizationId?: string; roleId?: string; subscribed?: boolean } = {},
): Promise<TestTenant> {
  const organizationId = options.organizationId ?? (await createOrganizationDirect(ctx, name));
  counter += 1;
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${counter}`;
  const email = `${slug}@example.com`;
  const userId = await createUserDirect(ctx, {
    email,
    username: slug,
    roleId: options.roleId ?? (await roleIdByName(ctx, SYSTEM_ROLES.admin)),
    organizationId,
  });
  if (options.subscribed) await addSubscription(ctx, organizationId);
  const session = await signIn(ctx.app, email, STRONG_PASSWORD);
  return { organizationId, userId, username: slug, email, session };
}

/** A subscription row for an organization, ACTIVE and valid for a month unless told otherwise. */
export async function addSubscription(
  ctx: TestContext,
  organizationId: string,
  options: { validFrom?: Date; validUntil?: Date; status?: string; credits?: number; createdAt?: Date } = {},
): Promise<string> {
  const [row] = await ctx.database.db
    .insert(subscriptions)
    .values({
      organizationId,
      subscribedProducts: ['AI_INTERVIEW_BOT'],
      totalInterviewCredits: options.credits ?? 10,
      interviewCreditsPricePaise: 10_000,
      taxRateBp: 1800,
      subTotalPaise: 100_000,
      totalAmountPaise: 100_000,
      taxAmountPaise: 18_000,
      grandTotalAmountPaise: 118_000,
      validFrom: options.validFrom ?? new Date(Date.now() - DAY_MS),
      validUntil: options.validUntil ?? new Date(Date.now() + 30 * DAY_MS),
      status: options.status ?? 'ACTIVE',
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    })
    .returning({ id: subscriptions.id });
  return row!.id;
}

export async function addPayment(
  ctx: TestContext,
  organizationId: string,
  options: {
    amountPaise: number;
    status?: string;
    paymentDate?: Date | null;
    createdAt?: Date;
    refundPaise?: number;
    /** The subscription it pays for. */
    subscriptionId?: string;
  },
): Promise<string> {
  const [row] = await ctx.database.db
    .insert(payments)
    .values({
      organizationId,
      subscriptionId: options.subscriptionId ?? null,
      amountPaise: options.amountPaise,
      paymentStatus: options.status ?? 'CREATED',
      paymentDate: options.paymentDate === undefined ? new Date() : options.paymentDate,
      refundAmountPaise: options.refundPaise ?? 0,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    })
    .returning({ id: payments.id });
  return row!.id;
}

/** A payment received in full with its tax invoice, as a manual payment issues one. */
export async function addInvoicedPayment(
  ctx: TestContext,
  organizationId: string,
  amountPaise = 118_000,
): Promise<{ paymentId: string; invoiceId: string; number: string }> {
  return ctx.database.db.transaction(async (tx) => {
    const [payment] = await tx
      .insert(payments)
      .values({ organizationId, amountPaise, paymentStatus: 'CREATED', paymentDate: new Date() })
      .returning();
    const { invoice } = await issueInvoice(withDb(ctx.app.deps, tx), systemActor('test'), {
      payment: payment!,
      subscription: null,
    });
    return { paymentId: payment!.id, invoiceId: invoice.id, number: invoice.number };
  });
}

/** A refund of part of an invoiced payment, recorded as Razorpay's webhook would: its credit note. */
export async function addCreditNote(ctx: TestContext, paymentId: string, amountPaise = 10_000) {
  const applied = await applyRefund(ctx.app.deps, systemActor('webhook'), {
    paymentId,
    amountPaise,
    reason: 'Test refund',
    providerRefund: { id: `rfnd_test_${paymentId.slice(0, 8)}_${Date.now()}_${Math.random()}` },
  });
  if (!applied.changed) throw new Error('a new refund id is always recorded');
  return { creditNoteId: applied.creditNote.id, number: applied.creditNote.number };
}

export async function addLedger(
  ctx: TestContext,
  organizationId: string,
  delta: number,
  reason: (typeof creditLedger.$inferInsert)['reason'],
  createdAt: Date = new Date(),
): Promise<void> {
  await ctx.database.db.insert(creditLedger).values({ organizationId, delta, reason, createdAt });
}

export async function addTicket(
  ctx: TestContext,
  organizationId: string,
  createdBy: string,
  status: 'Active' | 'Inactive' = 'Active',
): Promise<void> {
  counter += 1;
  await ctx.database.db.insert(supportTickets).values({
    displayId: `TICKET-${Date.now()}${counter}`,
    organizationId,
    createdBy,
    type: 'feedback',
    message: 'Help',
    status,
  });
}

export async function addActivity(
  ctx: TestContext,
  organizationId: string,
  entry: Partial<typeof activityEntries.$inferInsert> = {},
): Promise<void> {
  await ctx.database.db.insert(activityEntries).values({
    organizationId,
    action: 'other',
    entityType: 'test',
    message: 'Something happened',
    ...entry,
  });
}

/** A valid company-details body (`POST /api/auth/companies`) for an organization. */
export function companyDetailsBody(organizationId: string, overrides: Record<string, unknown> = {}) {
  return {
    organizationId,
    name: 'Acme Pvt Ltd',
    email: 'hello@acme.example',
    address: '12 MG Road',
    country: 'India',
    state: 'Karnataka',
    city: 'Bengaluru',
    pincode: '560001',
    industryType: 'Software',
    foundedIn: 2010,
    websiteUrl: 'https://acme.example',
    linkedinUrl: 'https://www.linkedin.com/company/acme',
    instagramUrl: '',
    facebookUrl: null,
    aboutUs: 'We make everything.',
    ...overrides,
  };
}
