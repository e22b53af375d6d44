import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    reason: text('reason', {
      enum: ['subscription', 'demo_trial', 'purchase', 'usage', 'adjustment', 'refund'],
    }).notNull(),
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
