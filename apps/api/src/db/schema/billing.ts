import { sql } from 'drizzle-orm';
import {
  COLLECTION_METHODS,
  LEDGER_REASONS,
  MANDATE_STATUSES,
  PLAN_STATUSES,
  RENEWAL_STATUSES,
} from '@portal/shared';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestampTz, updatedAt } from './columns.js';
import { organizations } from './tenancy.js';

/** Money columns are integer paise; tax rates are basis points (18% = 1800). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    paymentId: uuid('payment_id'),
    subscribedProducts: text('subscribed_products').array().notNull(),
    billingCycle: text('billing_cycle').notNull().default('MONTHLY'),
    totalInterviewCredits: integer('total_interview_credits').notNull(),
    interviewCreditsPricePaise: integer('interview_credits_price_paise').notNull(),
    totalPositionCredits: integer('total_position_credits').notNull().default(0),
    positionCreditsPricePaise: integer('position_credits_price_paise').notNull().default(0),
    taxRateBp: integer('tax_rate_bp').notNull(),
    taxInclusive: boolean('tax_inclusive').notNull().default(true),
    subTotalPaise: integer('sub_total_paise').notNull(),
    totalAmountPaise: integer('total_amount_paise').notNull(),
    taxAmountPaise: integer('tax_amount_paise').notNull(),
    grandTotalAmountPaise: integer('grand_total_amount_paise').notNull(),
    discountPercentage: integer('discount_percentage').notNull().default(0),
    discountAmountPaise: integer('discount_amount_paise').notNull().default(0),
    discountCode: text('discount_code').notNull().default(''),
    validFrom: timestampTz('valid_from').notNull(),
    validUntil: timestampTz('valid_until').notNull(),
    status: text('status').notNull().default('ACTIVE'),
    /** True when paid (manual payment or online), false when set up without a payment. */
    subscription: boolean('subscription').notNull().default(false),
    demoTrials: integer('demo_trials').notNull().default(0),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('subscriptions_org_valid').on(t.organizationId, t.validUntil)],
);

export const payments = pgTable(
  'payments',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id),
    amountPaise: integer('amount_paise').notNull(),
    providerPaymentId: text('provider_payment_id'),
    providerOrderId: text('provider_order_id'),
    paymentStatus: text('payment_status').notNull().default('CREATED'),
    paymentMethod: text('payment_method').notNull().default('MANUAL'),
    paymentCapture: boolean('payment_capture').notNull().default(true),
    manualReferenceNumber: text('manual_reference_number'),
    receivedBy: text('received_by'),
    paymentNotes: text('payment_notes'),
    paymentProofReference: text('payment_proof_reference'),
    paymentDate: timestampTz('payment_date'),
    refundAmountPaise: integer('refund_amount_paise').notNull().default(0),
    refundDate: timestampTz('refund_date'),
    refundId: text('refund_id'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_provider_payment_unique')
      .on(t.providerPaymentId)
      .where(sql`${t.providerPaymentId} is not null`),
    index('payments_org_created').on(t.organizationId, t.createdAt),
  ],
);

/** An online order; the server keeps the provider's order id so verify never trusts the client's. */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    provider: text('provider', { enum: ['sandbox', 'razorpay'] }).notNull(),
    providerOrderId: text('provider_order_id').notNull().unique(),
    credits: integer('credits').notNull(),
    amountPaise: integer('amount_paise').notNull(),
    currency: text('currency').notNull().default('INR'),
    receipt: text('receipt').notNull(),
    status: text('status', {
      enum: ['order_created', 'order_failed', 'payment_verified', 'payment_failed'],
    }).notNull(),
    paymentId: uuid('payment_id').references(() => payments.id),
    /** Set when the order pays a renewal (its approval above the mandate's silent limit, or a failed debit). */
    renewalId: uuid('renewal_id').references((): AnyPgColumn => renewals.id),
    /** Set when the order pays an upgrade: the plan's new credits a month, from now. */
    upgradeToCredits: integer('upgrade_to_credits'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('payment_orders_org').on(t.organizationId, t.createdAt)],
);

/** The balance is the sum of `delta`; it is never stored as a bare number that could drift. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    delta: integer('delta').notNull(),
    reason: text('reason', { enum: LEDGER_REASONS }).notNull(),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id),
    paymentId: uuid('payment_id').references(() => payments.id),
    /** Caller's reference for a use of credits; unique per organization so a retry debits once. */
    reference: text('reference'),
    note: text('note'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_ledger_org').on(t.organizationId, t.createdAt),
    uniqueIndex('credit_ledger_org_reference')
      .on(t.organizationId, t.reason, t.reference)
      .where(sql`${t.reference} is not null`),
  ],
);

/** Keys the interview product uses to spend an organization's credits. Stored hashed. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    lastUsedAt: timestampTz('last_used_at'),
    revokedAt: timestampTz('revoked_at'),
  },
  (t) => [index('api_keys_org').on(t.organizationId)],
);

/** Webhook events applied once each, keyed by the provider's event id. */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  eventType: text('event_type').notNull(),
  receivedAt: createdAt(),
});

/** Each organization's monthly plan (docs/product.md "Renewals"); period k starts `anchorAt` + k months. */
export const billingPlans = pgTable(
  'billing_plans',
  {
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id),
    creditsPerPeriod: integer('credits_per_period').notNull(),
    pricePerCreditPaise: integer('price_per_credit_paise').notNull(),
    taxRateBp: integer('tax_rate_bp').notNull(),
    amountPaise: integer('amount_paise').notNull(),
    autoRenew: boolean('auto_renew').notNull().default(false),
    collection: text('collection', { enum: ['manual', 'mandate'] })
      .notNull()
      .default('manual'),
    mandateStatus: text('mandate_status', { enum: MANDATE_STATUSES }).notNull().default('none'),
    mandateToken: text('mandate_token'),
    mandateMaxPaise: integer('mandate_max_paise'),
    /** Razorpay's customer whose token is the mandate (null in the sandbox). */
    mandateCustomerId: text('mandate_customer_id'),
    /** The Razorpay authorization order awaiting its payment; cleared once it confirms the mandate. */
    mandateOrderId: text('mandate_order_id'),
    anchorAt: timestampTz('anchor_at').notNull(),
    /** The next period to renew, and its start. */
    nextPeriod: integer('next_period').notNull().default(1),
    nextPeriodStart: timestampTz('next_period_start').notNull(),
    status: text('status', { enum: PLAN_STATUSES }).notNull().default('active'),
    /** Unused credits carried into a renewed period at most; the rest expire. Null: none expire. */
    rolloverCap: integer('rollover_cap'),
    pastDueSince: timestampTz('past_due_since'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('billing_plans_due')
      .on(t.nextPeriodStart)
      .where(sql`${t.autoRenew}`),
  ],
);

/** One period's renewal of a plan: its notice, its charge or payment, and what came of it. */
export const renewals = pgTable(
  'renewals',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    period: integer('period').notNull(),
    periodStart: timestampTz('period_start').notNull(),
    periodEnd: timestampTz('period_end').notNull(),
    credits: integer('credits').notNull(),
    pricePerCreditPaise: integer('price_per_credit_paise').notNull(),
    taxRateBp: integer('tax_rate_bp').notNull(),
    amountPaise: integer('amount_paise').notNull(),
    collection: text('collection', { enum: COLLECTION_METHODS }).notNull(),
    status: text('status', { enum: RENEWAL_STATUSES }).notNull(),
    noticeSentAt: timestampTz('notice_sent_at'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestampTz('next_attempt_at'),
    /** Until then the debit is being asked of the provider, or awaits its answer: no other asks. */
    chargeLeaseUntil: timestampTz('charge_lease_until'),
    lastError: text('last_error'),
    paymentId: uuid('payment_id').references(() => payments.id),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('renewals_org_period').on(t.organizationId, t.period),
    index('renewals_open')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('notified', 'failed')`),
  ],
);

/** The sandbox provider's record of mandate charges, by receipt (core/payments/sandbox-provider.ts). */
export const sandboxMandateCharges = pgTable('sandbox_mandate_charges', {
  receipt: text('receipt').primaryKey(),
  providerPaymentId: text('provider_payment_id'),
  amountPaise: integer('amount_paise').notNull(),
  failure: text('failure'),
  createdAt: createdAt(),
});
