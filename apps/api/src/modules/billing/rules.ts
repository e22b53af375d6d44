import {
  computeAmounts,
  INTERVIEW_BOT_PRODUCT,
  meets,
  messages,
  REQUIREMENTS,
  subscriptionTermsSchema,
  type Amounts,
} from '@portal/shared';
import type { PlanRow } from './renewals.repo.js';
import { badRequest, conflict, forbidden, notFound, type FieldErrors } from '../../lib/errors.js';
import { tenantScope, type Actor, type SystemActor } from '../../core/actor.js';

/**
 * The organization a billing request acts on: the one asked for, or the caller's own. Anyone but
 * super_admin asking for another organization gets 404: never reveal that it exists.
 */
export function organizationFor(actor: Actor, requested: string | undefined | null): string {
  const scope = tenantScope(actor);
  if (requested && scope && requested !== scope) throw notFound(messages.users.organizationNotFound);
  return requested ?? actor.organizationId;
}

/** Lists: the organization asked for (404 when foreign), else all (super_admin) or the caller's own. */
export function listScope(actor: Actor, requested: string | undefined): string | null {
  return requested ? organizationFor(actor, requested) : tenantScope(actor);
}

/** The user a change is recorded against: none when the portal acts (a webhook, an API key). */
export function actingUserId(actor: Actor | SystemActor): string | null {
  return actor.kind === 'user' ? actor.userId : null;
}

/**
 * Recording a subscription or a manual payment grants credits without an online payment, so it is the
 * platform operator's act: it needs Organization Management CREATE besides the route's Subscription
 * Management scope. The admin system role holds Subscription Management CREATE (to buy credits online
 * for its own organization) but not this, so a tenant cannot grant itself credits.
 */
export function requirePlatformBilling(actor: Actor): void {
  if (!meets(actor, REQUIREMENTS.recordPlatformBilling)) throw forbidden(messages.billing.platformOnly);
}

export interface AmountFigures {
  totalInterviewCredits: number;
  interviewCreditsPricePaise: number;
  taxRateBp: number;
  discountPercentage: number;
  subTotalPaise: number;
  discountAmountPaise: number;
  totalAmountPaise: number;
  taxAmountPaise?: number | undefined;
  grandTotalAmountPaise: number;
}

/** Recomputes every amount (shared `computeAmounts`) and refuses a payload whose figures differ. */
export function checkAmounts(figures: AmountFigures): Amounts {
  let amounts: Amounts;
  try {
    amounts = computeAmounts({
      credits: figures.totalInterviewCredits,
      pricePerCreditPaise: figures.interviewCreditsPricePaise,
      taxRateBp: figures.taxRateBp,
      discountPercentage: figures.discountPercentage,
    });
  } catch {
    throw badRequest(messages.subscription.amountsMismatch);
  }
  const expected: Record<string, number> = {
    subTotalPaise: amounts.subTotalPaise,
    discountAmountPaise: amounts.discountAmountPaise,
    totalAmountPaise: amounts.totalAmountPaise,
    grandTotalAmountPaise: amounts.grandTotalPaise,
  };
  if (figures.taxAmountPaise !== undefined) expected.taxAmountPaise = amounts.taxAmountPaise;
  const errors: FieldErrors = {};
  for (const [field, value] of Object.entries(expected)) {
    if (figures[field as keyof AmountFigures] !== value) {
      errors[field] = [`${messages.subscription.amountsMismatch} Expected ${value}.`];
    }
  }
  if (Object.keys(errors).length > 0) throw badRequest(messages.subscription.amountsMismatch, errors);
  return amounts;
}

/** One calendar month later, kept on the last day when the next month is shorter (31 Jan → 28/29 Feb). */
export function addOneMonth(from: Date): Date {
  return addMonths(from, 1);
}

/**
 * `months` calendar months after `from`, on the same day or the month's last (a plan anchored on the
 * 31st renews on 28/29 Feb, then on 31 Mar again: each period is counted from the anchor, not the last).
 */
export function addMonths(from: Date, months: number): Date {
  const result = new Date(from.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** A new subscription starts now and runs one calendar month. */
export function newPeriod(now = new Date()) {
  return { validFrom: now, validUntil: addOneMonth(now) };
}

/** Credits a refund takes back: the payment's credits in proportion to what is refunded in all, less those taken already. */
export function creditsToTakeBack(input: {
  bought: number;
  takenBack: number;
  paidPaise: number;
  refundedPaise: number;
}): number {
  const { bought, takenBack, paidPaise, refundedPaise } = input;
  // Half-up: a refund of half of 25 credits' price takes back 13; the full refund takes back all 25.
  const due = Math.floor((2 * bought * refundedPaise + paidPaise) / (2 * paidPaise));
  return Math.max(0, due - takenBack);
}

/** When period `k` of a plan starts (period 0 is the subscription set up at onboarding). */
export function periodStart(plan: Pick<PlanRow, 'anchorAt'>, k: number): Date {
  return addMonths(plan.anchorAt, k);
}

/** The period running at `at`: the largest k whose start is not after it. */
export function periodAt(plan: Pick<PlanRow, 'anchorAt'>, at: Date): number {
  const a = plan.anchorAt;
  let k = Math.max(0, (at.getUTCFullYear() - a.getUTCFullYear()) * 12 + at.getUTCMonth() - a.getUTCMonth());
  while (k > 0 && periodStart(plan, k) > at) k--;
  while (periodStart(plan, k + 1) <= at) k++;
  return k;
}

/**
 * What upgrading to `creditsPerPeriod` now costs: the running period's remaining share of the extra
 * credits (rounded up to whole credits), at the plan's price and GST.
 */
export function upgradeQuote(plan: PlanRow, creditsPerPeriod: number, now: Date) {
  if (creditsPerPeriod <= plan.creditsPerPeriod) throw badRequest(messages.renewals.notAnUpgrade);
  const k = Math.min(periodAt(plan, now), plan.nextPeriod - 1);
  const start = periodStart(plan, k);
  const end = periodStart(plan, k + 1);
  const share = Math.max(0, (end.getTime() - now.getTime()) / (end.getTime() - start.getTime()));
  const credits = Math.ceil((creditsPerPeriod - plan.creditsPerPeriod) * share);
  if (credits < 1 || end <= now) throw conflict(messages.renewals.nothingToProrate);
  const amounts = computeAmounts({
    credits,
    pricePerCreditPaise: plan.pricePerCreditPaise,
    taxRateBp: plan.taxRateBp,
  });
  return { credits, amounts, periodEnd: end };
}

/**
 * The terms and amounts of a subscription of `credits` at a price and GST, as the portal sells one
 * itself (a purchase online, a renewal, an upgrade's share): no discount, interview credits only.
 */
export function sellingTerms(input: { credits: number; pricePerCreditPaise: number; taxRateBp: number }) {
  const amounts = computeAmounts(input);
  const terms = subscriptionTermsSchema.parse({
    subscribedProducts: [INTERVIEW_BOT_PRODUCT],
    totalInterviewCredits: input.credits,
    interviewCreditsPricePaise: input.pricePerCreditPaise,
    taxRateBp: input.taxRateBp,
    subTotalPaise: amounts.subTotalPaise,
    totalAmountPaise: amounts.totalAmountPaise,
    taxAmountPaise: amounts.taxAmountPaise,
    grandTotalAmountPaise: amounts.grandTotalPaise,
  });
  return { terms, amounts };
}

/** The receipt naming one attempt's debit at the provider (Razorpay takes at most 40 characters). */
export function debitReceipt(renewalId: string, attempt: number) {
  return `rn_${renewalId.replaceAll('-', '')}_${attempt}`;
}
