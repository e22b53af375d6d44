import { z } from 'zod';
import { MAX_CREDITS, MAX_PRICE_PER_CREDIT_PAISE, MIN_PRICE_PER_CREDIT_PAISE } from '../money.js';
import { checkoutConfigSchema } from './billing.js';

/**
 * The monthly cycle (docs/product.md "Renewals"): each organization has one plan, renewed period by
 * period. A renewal is one period's debit or invoice: one row per organization and period.
 */

/** How a plan's renewals are paid: a card or UPI mandate charged by the portal, or a manual payment. */
export const COLLECTION_METHODS = ['manual', 'mandate'] as const;
export type CollectionMethod = (typeof COLLECTION_METHODS)[number];

export const MANDATE_STATUSES = ['none', 'authorized', 'cancelled'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];

/**
 * A plan is `past_due` once a renewal is owed past its period's start (a manual or approval renewal
 * unpaid, or a debit declined after every retry), and `suspended` RENEWAL_GRACE_DAYS later: no new
 * period is renewed until what is owed is paid, which makes it active again.
 */
export const PLAN_STATUSES = ['active', 'past_due', 'suspended'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export const RENEWAL_GRACE_DAYS = 7;

export const RENEWAL_STATUSES = [
  /** Due within RENEWALS_DUE_WITHIN_DAYS; its notice goes out PRE_DEBIT_NOTICE_LEAD_HOURS before. */
  'scheduled',
  /** Pre-debit notice sent; the mandate is charged at the period's start. */
  'notified',
  /** The customer opted out of this one debit. */
  'skipped',
  /** Above the silent limit: waits for the customer to pay through the link. */
  'awaiting_authentication',
  /** A manual customer's renewal notice: waits for the operator to record the payment. */
  'awaiting_payment',
  /** A debit is being asked of the provider (or was, by a process that stopped: retried with its receipt). */
  'charging',
  /** The mandate was charged. */
  'charged',
  /** Paid through the link or recorded by the operator. */
  'paid',
  /** The charge was refused by the bank or the provider. */
  'failed',
  /** Its period ended unpaid. */
  'lapsed',
] as const;
export type RenewalStatus = (typeof RENEWAL_STATUSES)[number];

/** Statuses of a renewal that still wants money. */
export const OPEN_RENEWAL_STATUSES = [
  'scheduled',
  'notified',
  'awaiting_authentication',
  'awaiting_payment',
  'failed',
] as const satisfies readonly RenewalStatus[];

/** A renewal the customer may still decline (skip): not yet charged or paid. */
export const SKIPPABLE_RENEWAL_STATUSES = [
  'scheduled',
  'notified',
  'awaiting_authentication',
  'awaiting_payment',
] as const satisfies readonly RenewalStatus[];
/** A renewal the customer pays online through its own order: approval needed, declined, lapsed. */
export const ORDERABLE_RENEWAL_STATUSES = [
  'awaiting_authentication',
  'failed',
  'lapsed',
] as const satisfies readonly RenewalStatus[];
/** A renewal the operator records a payment for (and a paid order settles). */
export const PAYABLE_RENEWAL_STATUSES = [
  'awaiting_payment',
  'awaiting_authentication',
  'failed',
  'lapsed',
] as const satisfies readonly RenewalStatus[];

/** A period's renewal is scheduled (and listed as due) this many days before it starts. */
export const RENEWALS_DUE_WITHIN_DAYS = 7;
/** RBI e-mandate rules: a debit above ₹15,000 needs the customer's authentication each time. */
export const MANDATE_SILENT_LIMIT_PAISE = 1_500_000;
/** The pre-debit notice goes out this long before the debit... */
export const PRE_DEBIT_NOTICE_LEAD_HOURS = 48;
/** ...and a debit waits until its notice is at least this old (the rule's floor). */
export const PRE_DEBIT_NOTICE_MIN_HOURS = 24;

/** A failed debit is tried again this many days after its first failure; after the last, it waits for payment. */
export const RENEWAL_RETRY_DAYS = [1, 3, 5] as const;

export const billingPlanSchema = z.object({
  organizationId: z.string(),
  creditsPerPeriod: z.number(),
  pricePerCreditPaise: z.number(),
  taxRateBp: z.number(),
  /** The period's grand total, GST included. */
  amountPaise: z.number(),
  autoRenew: z.boolean(),
  collection: z.enum(COLLECTION_METHODS),
  mandateStatus: z.enum(MANDATE_STATUSES),
  status: z.enum(PLAN_STATUSES),
  pastDueSince: z.string().nullable(),
  /** Unused credits carried into a renewed period at most; null when credits never expire. */
  rolloverCap: z.number().nullable(),
  /** What the organization owes: its open renewals past their period's start, GST included. */
  owedPaise: z.number(),
  currentPeriodStart: z.string(),
  /** The next renewal: the next period starts here. */
  currentPeriodEnd: z.string(),
});
export type BillingPlan = z.infer<typeof billingPlanSchema>;

export const renewalSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  period: z.number(),
  periodStart: z.string(),
  periodEnd: z.string(),
  credits: z.number(),
  amountPaise: z.number(),
  collection: z.enum(COLLECTION_METHODS),
  status: z.enum(RENEWAL_STATUSES),
  noticeSentAt: z.string().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  paymentId: z.string().nullable(),
  subscriptionId: z.string().nullable(),
});
export type Renewal = z.infer<typeof renewalSchema>;

/** GET /api/auth/billing-plan: the plan and its latest renewals, newest first (null before onboarding). */
export const billingPlanViewSchema = z.object({
  plan: billingPlanSchema.nullable(),
  renewals: z.array(renewalSchema),
});
export type BillingPlanView = z.infer<typeof billingPlanViewSchema>;

export const billingPlanQuerySchema = z.object({ organizationId: z.uuid().optional() });

/** PUT /api/auth/billing-plan: auto-renewal on or off. */
export const updateBillingPlanBodySchema = z.strictObject({ autoRenew: z.boolean() });
export type UpdateBillingPlanBody = z.infer<typeof updateBillingPlanBodySchema>;

/** Razorpay's card mandate is authorized by a ₹1 payment in Checkout, refunded at once. */
export const MANDATE_AUTHORIZATION_PAISE = 100;

/**
 * POST /api/auth/billing-plan/mandate/order: the authorization order to open Razorpay Checkout with
 * (`recurring: 1`, the customer), and the most each silent debit may take.
 */
export const mandateOrderSchema = z.object({
  orderId: z.string(),
  customerId: z.string(),
  amountPaise: z.number(),
  maxAmountPaise: z.number(),
  checkout: checkoutConfigSchema,
});
export type MandateOrder = z.infer<typeof mandateOrderSchema>;

/** Sandbox test card whose mandate is authorized but whose every debit the bank declines. */
export const SANDBOX_FAILING_DEBITS_CARD = '4000000000000341';

/**
 * POST /api/admin/payment/sandbox/mandate: the sandbox's checkout registers the organization's card
 * mandate (the authentication a customer completes in Razorpay Checkout). The declined card is refused.
 */
export const sandboxMandateBodySchema = z.object({
  cardNumber: z
    .string()
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{16}$/, 'Enter the 16 digits of the test card')),
});
export type SandboxMandateBody = z.input<typeof sandboxMandateBodySchema>;

/**
 * The operator's Renewals view, by what needs doing: `due` is scheduled, announced or being retried
 * (each within RENEWALS_DUE_WITHIN_DAYS), `pending` waits for the customer (approval or a manual
 * payment), `failed` had every debit declined, `lapsed` ended unpaid; `all` lists every renewal.
 */
export const RENEWAL_VIEWS = ['due', 'pending', 'failed', 'lapsed', 'all'] as const;
export type RenewalView = (typeof RENEWAL_VIEWS)[number];

export const renewalListQuerySchema = z.object({
  view: z.enum(RENEWAL_VIEWS).default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  organizationId: z.uuid().optional(),
});
export type RenewalListQuery = z.input<typeof renewalListQuerySchema>;

/** A row of GET /api/auth/renewals: the renewal, whose it is, and what happens next. */
export const renewalListItemSchema = renewalSchema.extend({
  organizationName: z.string(),
  /** When the debit is next tried (mandate renewals), else null. */
  nextAttemptAt: z.string().nullable(),
});
export type RenewalListItem = z.infer<typeof renewalListItemSchema>;

/** POST /api/auth/test-clock (TEST_CLOCK=on only): moves the billing clock forward, then runs renewals. */
export const advanceClockBodySchema = z.strictObject({
  hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 400),
});
export const clockAdvancedSchema = z.object({ now: z.string() });

/**
 * PUT /api/auth/billing-plan/terms: the plan's terms from its next renewal not yet announced (a
 * downgrade waits for it). The admin may change the credits a month; the price, GST and rollover cap
 * are the platform operator's.
 */
export const planTermsBodySchema = z
  .strictObject({
    creditsPerPeriod: z.number().int().min(1).max(MAX_CREDITS).optional(),
    pricePerCreditPaise: z
      .number()
      .int()
      .min(MIN_PRICE_PER_CREDIT_PAISE)
      .max(MAX_PRICE_PER_CREDIT_PAISE)
      .optional(),
    taxRateBp: z.number().int().min(0).max(10_000).optional(),
    rolloverCap: z.number().int().min(0).max(MAX_CREDITS).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to change' });
export type PlanTermsBody = z.infer<typeof planTermsBodySchema>;

/**
 * POST /api/auth/billing-plan/upgrade: more credits a month from now. The period's remaining share of
 * the extra credits is charged (an order, paid through checkout) and granted; renewals then bill the
 * new credits.
 */
export const upgradePlanBodySchema = z.strictObject({
  creditsPerPeriod: z.number().int().min(1).max(MAX_CREDITS),
});
export type UpgradePlanBody = z.infer<typeof upgradePlanBodySchema>;

/** POST /api/auth/billing-plan/cancel-now: the plan ends now; the rest of the running period is refunded. */
export const planCancelledSchema = z.object({
  plan: billingPlanSchema,
  /** What was refunded, GST included, each refund with its credit note. */
  refundedPaise: z.number(),
  creditNotes: z.array(z.string()),
});
export type PlanCancelled = z.infer<typeof planCancelledSchema>;
