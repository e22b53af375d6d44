import {
  activityItemSchema,
  billingPlanSchema,
  INTERVIEW_BOT_PRODUCT,
  onboardingResultSchema,
  renewalListItemSchema,
  renewalSchema,
  subscriptionSchema,
  type ActivityItem,
  type BillingPlan,
  type OnboardingResult,
  type Payment,
  type Renewal,
  type RenewalListItem,
  type Subscription,
} from '@portal/shared';

export const ORG_ID = '33333333-3333-4333-8333-333333333333';

export const pendingUser = {
  username: 'acme.admin',
  email: 'admin@acme.test',
  mobileNo: '9876543210',
  client: 'Acme Hiring',
  organizationId: ORG_ID,
  roleId: '44444444-4444-4444-8444-444444444444',
  isSubscription: false,
  isActive: true,
  createAsAdmin: true,
};

/** A month of 10 credits at ₹100 + 18 % GST, as the API answers a subscription. */
export function aSubscription(fields: Partial<Subscription> = {}): Subscription {
  return subscriptionSchema.parse({
    id: 's1',
    organizationId: ORG_ID,
    paymentId: null,
    subscribedProducts: [INTERVIEW_BOT_PRODUCT],
    billingCycle: 'MONTHLY',
    totalInterviewCredits: 10,
    interviewCreditsPricePaise: 10_000,
    totalPositionCredits: 0,
    positionCreditsPricePaise: 0,
    taxRateBp: 1800,
    taxInclusive: true,
    subTotalPaise: 100_000,
    discountPercentage: 0,
    discountAmountPaise: 0,
    discountCode: '',
    totalAmountPaise: 100_000,
    taxAmountPaise: 18_000,
    grandTotalAmountPaise: 118_000,
    validFrom: '2030-01-01T00:00:00.000Z',
    validUntil: '2030-02-01T00:00:00.000Z',
    status: 'ACTIVE',
    subscription: false,
    demoTrials: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...fields,
  } satisfies Subscription);
}

/** POST /auth/onboarding's answer: the pending user created, with their subscription (and payment). */
export function onboarded(payment: Payment | null = null): OnboardingResult {
  return onboardingResultSchema.parse({
    user: {
      id: '55555555-5555-4555-8555-555555555555',
      username: pendingUser.username,
      email: pendingUser.email,
      organizationId: ORG_ID,
    },
    subscription: aSubscription(),
    payment,
    creditBalance: 10,
  } satisfies OnboardingResult);
}

/** A plan of 10 credits a month at ₹100 + 18 % GST (₹1,180), renewing on its own, paid by hand. */
export function aPlan(fields: Partial<BillingPlan> = {}): BillingPlan {
  return billingPlanSchema.parse({
    organizationId: ORG_ID,
    creditsPerPeriod: 10,
    pricePerCreditPaise: 10_000,
    taxRateBp: 1800,
    amountPaise: 118_000,
    autoRenew: true,
    collection: 'manual',
    mandateStatus: 'none',
    status: 'active',
    rolloverCap: null,
    pastDueSince: null,
    owedPaise: 0,
    currentPeriodStart: '2030-02-01T00:00:00.000Z',
    currentPeriodEnd: '2030-03-01T00:00:00.000Z',
    ...fields,
  } satisfies BillingPlan);
}

/** Renewal ids are UUIDs, as the API's routes take them. */
export const renewalId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The plan's renewal of period `period` (1 is January 2030), at the plan's terms. */
export function aRenewal(period: number, fields: Partial<Renewal> = {}): Renewal {
  const month = (n: number) => new Date(Date.UTC(2030, n - 1, 1)).toISOString();
  return renewalSchema.parse({
    id: renewalId(period),
    organizationId: ORG_ID,
    period,
    periodStart: month(period),
    periodEnd: month(period + 1),
    credits: 10,
    amountPaise: 118_000,
    collection: 'manual',
    status: 'awaiting_payment',
    noticeSentAt: null,
    attempts: 0,
    lastError: null,
    paymentId: null,
    subscriptionId: null,
    ...fields,
  } satisfies Renewal);
}

/** A row of the operator's Renewals list. */
export function aRenewalRow(period: number, fields: Partial<RenewalListItem> = {}): RenewalListItem {
  return renewalListItemSchema.parse({
    ...aRenewal(period),
    organizationName: 'Acme Hiring',
    nextAttemptAt: null,
    ...fields,
  } satisfies RenewalListItem);
}

/** An entry of an organization's subscription timeline (the activity feed), `n` hours into 2030. */
export function anEvent(n: number, fields: Partial<ActivityItem> = {}): ActivityItem {
  return activityItemSchema.parse({
    id: `e${n}`,
    type: 'other',
    message: `Event ${n}`,
    entityType: 'renewal',
    entityId: null,
    organizationId: ORG_ID,
    actorUserId: null,
    actorName: null,
    date: new Date(Date.UTC(2030, 0, 1, n)).toISOString(),
    ...fields,
  } satisfies ActivityItem);
}
