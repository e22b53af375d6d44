import { z } from 'zod';
import {
  BILLING_CYCLE,
  DEFAULT_PAYMENT_METHOD,
  DEMO_TRIAL_OPTIONS,
  INTERVIEW_BOT_PRODUCT,
  MANUAL_PAYMENT_RECEIVED_BY,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
} from '../constants.js';
import { messages } from '../messages.js';
import {
  DEFAULT_GST_RATE_BP,
  MAX_AMOUNT_PAISE,
  MAX_CREDITS,
  MAX_PRICE_PER_CREDIT_PAISE,
  MIN_PRICE_PER_CREDIT_PAISE,
} from '../money.js';
import { createUserBodySchema } from './users.js';

/**
 * Subscriptions, payments, online orders, the credit ledger and API keys (docs/product.md,
 * "Subscriptions and payments"). Money is integer paise (`*Paise`), tax rates are
 * basis points (`taxRateBp`, 18% = 1800); see money.ts for what each amount means.
 */
export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'CANCELLED', 'EXPIRED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** How a subscription's status and billing cycle read on screen. */
export const subscriptionStatusLabels: Record<SubscriptionStatus, string> = {
  ACTIVE: 'Active',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired',
};
export const billingCycleLabels: Record<typeof BILLING_CYCLE, string> = { MONTHLY: 'Monthly' };

/** `Active · Monthly`; a value without a label reads as itself. */
export function subscriptionStateLabel(status: string, billingCycle: string): string {
  const statusText = (subscriptionStatusLabels as Record<string, string>)[status] ?? status;
  const cycleText = (billingCycleLabels as Record<string, string>)[billingCycle] ?? billingCycle;
  return `${statusText} · ${cycleText}`;
}

/**
 * Payment record status. A manual payment is recorded as CREATED (an administrator's
 * record of money received, not checked by a provider); an online payment whose signature was
 * verified is CAPTURED.
 */
export const PAYMENT_RECORD_STATUSES = ['CREATED', 'CAPTURED', 'FAILED', 'REFUNDED'] as const;
export type PaymentRecordStatus = (typeof PAYMENT_RECORD_STATUSES)[number];

/** `paymentMethod` of a payment record: MANUAL (default), the manual methods upper-cased, or ONLINE. */
export const PAYMENT_RECORD_METHODS = [
  'MANUAL',
  ...PAYMENT_METHODS.map((m) => m.toUpperCase() as Uppercase<(typeof PAYMENT_METHODS)[number]>),
  'ONLINE',
] as const;
export type PaymentRecordMethod = (typeof PAYMENT_RECORD_METHODS)[number];

export const LEDGER_REASONS = [
  'subscription',
  'demo_trial',
  'purchase',
  'usage',
  'adjustment',
  'refund',
  /** Unused credits past the plan's rollover cap, taken at a renewal (docs/product.md "Renewals"). */
  'expiry',
  /** A note of the unused credits carried into a renewed period (delta 0). */
  'rollover',
] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** Credits a tenant admin may buy online in one order. */
export const MAX_ORDER_CREDITS = 10_000;

const paise = z.number().int().min(0).max(MAX_AMOUNT_PAISE);
const isoDate = z.iso.datetime({ offset: true });

export const demoTrialsSchema = z
  .number()
  .int()
  .refine((n) => n === 0 || (DEMO_TRIAL_OPTIONS as readonly number[]).includes(n), {
    message: `Demo credits must be one of ${DEMO_TRIAL_OPTIONS.join(', ')}`,
  });

/**
 * What a subscription sells, with the amounts the client computed (`computeAmounts`). The server
 * recomputes and answers 400 `messages.subscription.amountsMismatch` when a figure differs.
 * Position credits (none), billing cycle (monthly) and tax-inclusive (true) are fixed.
 */
export const subscriptionTermsSchema = z.object({
  subscribedProducts: z
    .array(z.literal(INTERVIEW_BOT_PRODUCT))
    .min(1)
    .max(1)
    .default([INTERVIEW_BOT_PRODUCT]),
  billingCycle: z.literal(BILLING_CYCLE).default(BILLING_CYCLE),
  totalInterviewCredits: z.number().int().min(1).max(MAX_CREDITS),
  interviewCreditsPricePaise: z
    .number()
    .int()
    .min(MIN_PRICE_PER_CREDIT_PAISE)
    .max(MAX_PRICE_PER_CREDIT_PAISE),
  totalPositionCredits: z.literal(0).default(0),
  positionCreditsPricePaise: z.literal(0).default(0),
  taxRateBp: z.number().int().min(0).max(10_000).default(DEFAULT_GST_RATE_BP),
  taxInclusive: z.literal(true).default(true),
  discountPercentage: z.number().int().min(0).max(100).default(0),
  discountAmountPaise: paise.default(0),
  discountCode: z.string().trim().max(40).default(''),
  subTotalPaise: paise,
  totalAmountPaise: paise,
  /** Optional in the payload (clients may leave it out); checked when sent. */
  taxAmountPaise: paise.optional(),
  grandTotalAmountPaise: paise,
  demoTrials: demoTrialsSchema.default(0),
});
export type SubscriptionTerms = z.input<typeof subscriptionTermsSchema>;

/** POST /api/auth/subscriptions. validFrom/validUntil are set by the server. */
export const createSubscriptionBodySchema = subscriptionTermsSchema.extend({
  organizationId: z.uuid(),
  paymentId: z.uuid().nullable().default(null),
  status: z.literal('ACTIVE').default('ACTIVE'),
  /** false for a plain create, true when set up with a manual payment. */
  subscription: z.boolean().default(false),
});
export type CreateSubscriptionBody = z.input<typeof createSubscriptionBodySchema>;

/** PUT /api/auth/subscriptions/:id: attach the payment, or change the status. Other fields are ignored. */
export const updateSubscriptionBodySchema = z.object({
  paymentId: z.uuid().nullable().optional(),
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
});
export type UpdateSubscriptionBody = z.input<typeof updateSubscriptionBodySchema>;

export const subscriptionSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  paymentId: z.string().nullable(),
  subscribedProducts: z.array(z.string()),
  billingCycle: z.string(),
  totalInterviewCredits: z.number(),
  interviewCreditsPricePaise: z.number(),
  totalPositionCredits: z.number(),
  positionCreditsPricePaise: z.number(),
  taxRateBp: z.number(),
  taxInclusive: z.boolean(),
  subTotalPaise: z.number(),
  discountPercentage: z.number(),
  discountAmountPaise: z.number(),
  discountCode: z.string(),
  totalAmountPaise: z.number(),
  taxAmountPaise: z.number(),
  grandTotalAmountPaise: z.number(),
  validFrom: z.string(),
  validUntil: z.string(),
  status: z.string(),
  subscription: z.boolean(),
  demoTrials: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** POST /api/auth/payments, with a manual payment's defaults. Provider ids are set only by verify. */
export const createPaymentBodySchema = z.object({
  organizationId: z.uuid(),
  subscriptionId: z.uuid().nullable().default(null),
  amountPaise: paise.min(1),
  paymentStatus: z.literal('CREATED').default('CREATED'),
  paymentMethod: z
    .string()
    .trim()
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(PAYMENT_RECORD_METHODS).exclude(['ONLINE']))
    .default('MANUAL'),
  paymentCapture: z.boolean().default(true),
  manualReferenceNumber: z.string().trim().min(1).max(100).nullable().default(null),
  receivedBy: z.string().trim().min(1).max(100).default(MANUAL_PAYMENT_RECEIVED_BY),
  paymentNotes: z.string().trim().max(1000).default(messages.payment.defaultNotes),
  paymentProofReference: z.string().trim().max(200).nullable().default(null),
  paymentDate: isoDate.nullable().default(null),
  refundAmountPaise: z.literal(0).default(0),
});
export type CreatePaymentBody = z.input<typeof createPaymentBodySchema>;

export const paymentSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  subscriptionId: z.string().nullable(),
  amountPaise: z.number(),
  providerPaymentId: z.string().nullable(),
  providerOrderId: z.string().nullable(),
  paymentStatus: z.string(),
  paymentMethod: z.string(),
  paymentCapture: z.boolean(),
  manualReferenceNumber: z.string().nullable(),
  receivedBy: z.string().nullable(),
  paymentNotes: z.string().nullable(),
  paymentProofReference: z.string().nullable(),
  paymentDate: z.string().nullable(),
  refundAmountPaise: z.number(),
  refundDate: z.string().nullable(),
  refundId: z.string().nullable(),
  createdAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const billingListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  organizationId: z.uuid().optional(),
});
export type BillingListQuery = z.input<typeof billingListQuerySchema>;

/** The manual payment form: a transaction id is required. */
export const manualPaymentInputSchema = z.object({
  transactionId: z
    .string({ error: messages.payment.transactionIdRequired })
    .trim()
    .min(1, messages.payment.transactionIdRequired)
    .max(100),
  paymentMethod: z.enum(PAYMENT_METHODS).default(DEFAULT_PAYMENT_METHOD),
  /** A day (YYYY-MM-DD, from the date input) or a full ISO timestamp. */
  paymentDate: z.union([z.iso.date(), isoDate]),
  remarks: z.string().trim().max(1000).default(''),
});
export type ManualPaymentInput = z.input<typeof manualPaymentInputSchema>;

/**
 * POST /api/auth/onboarding: the organization, its admin user, the subscription and (with `payment`)
 * the manual payment record, in one transaction, guarded by an Idempotency-Key header.
 * `user.roleId` defaults to the admin system role.
 */
export const onboardingBodySchema = z.object({
  user: createUserBodySchema.partial({ roleId: true }),
  subscription: subscriptionTermsSchema,
  payment: manualPaymentInputSchema.optional(),
  /** The plan renews each month on its own (docs/product.md "Renewals"). */
  autoRenew: z.boolean().default(false),
});
export type OnboardingBody = z.input<typeof onboardingBodySchema>;

export const ledgerEntrySchema = z.object({
  id: z.string(),
  delta: z.number(),
  reason: z.enum(LEDGER_REASONS),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  paymentId: z.string().nullable(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const creditSummarySchema = z.object({
  organizationId: z.string(),
  balance: z.number(),
  /** The subscription running now (of the active ones in force, the first started); null when none. */
  subscription: subscriptionSchema.nullable(),
  /** Active subscriptions bought to follow it (a top-up starts when the current one ends), soonest first. */
  upcoming: z.array(subscriptionSchema),
  entries: z.array(ledgerEntrySchema),
});
export type CreditSummary = z.infer<typeof creditSummarySchema>;

export const creditsQuerySchema = z.object({ organizationId: z.uuid().optional() });

export const onboardingResultSchema = z.object({
  user: z.object({ id: z.string(), username: z.string(), email: z.string(), organizationId: z.string() }),
  subscription: subscriptionSchema,
  payment: paymentSchema.nullable(),
  creditBalance: z.number(),
});
export type OnboardingResult = z.infer<typeof onboardingResultSchema>;

/** POST /api/admin/payment/order: only the number of credits; the server prices them. */
export const createOrderBodySchema = z.object({
  credits: z.number().int().min(1).max(MAX_ORDER_CREDITS),
  /** super_admin only; others buy for their own organization. */
  organizationId: z.uuid().optional(),
});
export type CreateOrderBody = z.input<typeof createOrderBodySchema>;

export const paymentOrderSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  provider: z.enum(['sandbox', 'razorpay']),
  providerOrderId: z.string(),
  credits: z.number(),
  amountPaise: z.number(),
  currency: z.string(),
  receipt: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  paymentId: z.string().nullable(),
  createdAt: z.string(),
});
export type PaymentOrder = z.infer<typeof paymentOrderSchema>;

/** What the browser needs to open the checkout (Razorpay Checkout or the sandbox's test card form). */
export const checkoutConfigSchema = z.object({
  provider: z.enum(['sandbox', 'razorpay']),
  keyId: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  currency: z.string(),
});
export type CheckoutConfig = z.infer<typeof checkoutConfigSchema>;

export const orderCreatedSchema = z.object({
  status: z.literal('order_created'),
  message: z.string(),
  order: paymentOrderSchema,
  checkout: checkoutConfigSchema,
});
export type OrderCreated = z.infer<typeof orderCreatedSchema>;

/** The checkout's answer, as Razorpay names it. */
export const verifyPaymentBodySchema = z.object({
  razorpay_order_id: z.string().trim().min(1).max(100),
  razorpay_payment_id: z.string().trim().min(1).max(100),
  razorpay_signature: z.string().trim().min(1).max(200),
});
export type VerifyPaymentBody = z.infer<typeof verifyPaymentBodySchema>;

export const paymentVerifiedSchema = z.object({
  status: z.literal('payment_verified'),
  message: z.string(),
  order: paymentOrderSchema,
  payment: paymentSchema,
  creditBalance: z.number(),
});
export type PaymentVerified = z.infer<typeof paymentVerifiedSchema>;

/** Test card that the sandbox declines (Razorpay's failure test card); any other 16 digits succeed. */
export const SANDBOX_DECLINED_CARD = '4000000000000002';
export const SANDBOX_TEST_CARD = '4111111111111111';

export const sandboxPayBodySchema = z.object({
  razorpay_order_id: z.string().trim().min(1).max(100),
  cardNumber: z
    .string()
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{16}$/, 'Enter the 16 digits of the test card'))
    .default(SANDBOX_TEST_CARD),
});
export type SandboxPayBody = z.input<typeof sandboxPayBodySchema>;

export const useCreditsBodySchema = z.object({
  credits: z.number().int().min(1).max(MAX_CREDITS),
  reference: z.string().trim().min(1).max(200),
});
export type UseCreditsBody = z.infer<typeof useCreditsBodySchema>;

export const creditsUsedSchema = z.object({
  entryId: z.string(),
  debited: z.number(),
  reference: z.string(),
  balance: z.number(),
  /** true when this reference had already been debited: nothing changed. */
  replayed: z.boolean(),
});

export const createApiKeyBodySchema = z.object({
  name: z.string().trim().min(1).max(100),
  organizationId: z.uuid().optional(),
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBodySchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The key itself is answered once, at creation; only its hash is stored. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
