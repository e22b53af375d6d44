import type {
  ApiKey,
  BillingPlan,
  LedgerEntry,
  Payment,
  PaymentOrder,
  Renewal,
  Subscription,
} from '@portal/shared';
import type { PlanRow, RenewalRow } from './renewals.repo.js';
import { periodAt, periodStart } from './rules.js';
import type { apiKeys, creditLedger, paymentOrders, payments, subscriptions } from '../../db/schema/index.js';

/** Row → API shape. Dates as ISO strings; money stays integer paise. */
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toSubscriptionDto(row: typeof subscriptions.$inferSelect): Subscription {
  return {
    id: row.id,
    organizationId: row.organizationId,
    paymentId: row.paymentId,
    subscribedProducts: row.subscribedProducts,
    billingCycle: row.billingCycle,
    totalInterviewCredits: row.totalInterviewCredits,
    interviewCreditsPricePaise: row.interviewCreditsPricePaise,
    totalPositionCredits: row.totalPositionCredits,
    positionCreditsPricePaise: row.positionCreditsPricePaise,
    taxRateBp: row.taxRateBp,
    taxInclusive: row.taxInclusive,
    subTotalPaise: row.subTotalPaise,
    discountPercentage: row.discountPercentage,
    discountAmountPaise: row.discountAmountPaise,
    discountCode: row.discountCode,
    totalAmountPaise: row.totalAmountPaise,
    taxAmountPaise: row.taxAmountPaise,
    grandTotalAmountPaise: row.grandTotalAmountPaise,
    validFrom: row.validFrom.toISOString(),
    validUntil: row.validUntil.toISOString(),
    status: row.status,
    subscription: row.subscription,
    demoTrials: row.demoTrials,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toPaymentDto(row: typeof payments.$inferSelect): Payment {
  return {
    id: row.id,
    organizationId: row.organizationId,
    subscriptionId: row.subscriptionId,
    amountPaise: row.amountPaise,
    providerPaymentId: row.providerPaymentId,
    providerOrderId: row.providerOrderId,
    paymentStatus: row.paymentStatus,
    paymentMethod: row.paymentMethod,
    paymentCapture: row.paymentCapture,
    manualReferenceNumber: row.manualReferenceNumber,
    receivedBy: row.receivedBy,
    paymentNotes: row.paymentNotes,
    paymentProofReference: row.paymentProofReference,
    paymentDate: iso(row.paymentDate),
    refundAmountPaise: row.refundAmountPaise,
    refundDate: iso(row.refundDate),
    refundId: row.refundId,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toOrderDto(row: typeof paymentOrders.$inferSelect): PaymentOrder {
  return {
    id: row.id,
    organizationId: row.organizationId,
    provider: row.provider,
    providerOrderId: row.providerOrderId,
    credits: row.credits,
    amountPaise: row.amountPaise,
    currency: row.currency,
    receipt: row.receipt,
    status: row.status,
    paymentId: row.paymentId,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toLedgerDto(row: typeof creditLedger.$inferSelect): LedgerEntry {
  return {
    id: row.id,
    delta: row.delta,
    reason: row.reason,
    reference: row.reference,
    note: row.note,
    subscriptionId: row.subscriptionId,
    paymentId: row.paymentId,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toApiKeyDto(row: typeof apiKeys.$inferSelect): ApiKey {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: iso(row.lastUsedAt),
    revokedAt: iso(row.revokedAt),
  };
}

export function toPlanDto(plan: PlanRow, now: Date, owed: number): BillingPlan {
  const current = Math.max(0, Math.min(periodAt(plan, now), plan.nextPeriod - 1));
  return {
    organizationId: plan.organizationId,
    creditsPerPeriod: plan.creditsPerPeriod,
    pricePerCreditPaise: plan.pricePerCreditPaise,
    taxRateBp: plan.taxRateBp,
    amountPaise: plan.amountPaise,
    autoRenew: plan.autoRenew,
    collection: plan.collection,
    mandateStatus: plan.mandateStatus,
    status: plan.status,
    rolloverCap: plan.rolloverCap,
    pastDueSince: plan.pastDueSince?.toISOString() ?? null,
    owedPaise: owed,
    currentPeriodStart: periodStart(plan, current).toISOString(),
    currentPeriodEnd: periodStart(plan, current + 1).toISOString(),
  };
}

export function toRenewalDto(row: RenewalRow): Renewal {
  return {
    id: row.id,
    organizationId: row.organizationId,
    period: row.period,
    periodStart: row.periodStart.toISOString(),
    periodEnd: row.periodEnd.toISOString(),
    credits: row.credits,
    amountPaise: row.amountPaise,
    collection: row.collection,
    status: row.status,
    noticeSentAt: row.noticeSentAt?.toISOString() ?? null,
    attempts: row.attempts,
    lastError: row.lastError,
    paymentId: row.paymentId,
    subscriptionId: row.subscriptionId,
  };
}
