import { formatCount, formatDate, formatRupees, messages } from '@portal/shared';
import type { Actor, SystemActor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import type { Deps } from '../../core/deps.js';
import { notifyOrganizationAdmins } from '../notifications/index.js';
import { creditBalance, insertLedgerEntryOnce } from './ledger.repo.js';
import type { PaymentRow } from './payments.repo.js';
import { findPlan, owedPaise, updatePlan, updateRenewal, type RenewalRow } from './renewals.repo.js';
import { actingUserId, periodAt, periodStart, sellingTerms } from './rules.js';
import { updateSubscriptionRow, type SubscriptionRow } from './subscriptions.repo.js';
import { insertSubscriptionRecord } from './subscriptions.service.js';

/**
 * Records what paid a renewal, in the caller's transaction: its subscription for the period, the
 * payment (`pay`, given the subscription, records it and its tax invoice), the period's credits
 * (granted once: the ledger reference is the renewal) and the post-debit alert.
 */
export async function settleRenewal(
  deps: Deps,
  actor: Actor | SystemActor,
  input: {
    renewal: RenewalRow;
    status: 'charged' | 'paid';
    pay(subscription: SubscriptionRow): Promise<PaymentRow>;
  },
): Promise<{ renewal: RenewalRow; payment: PaymentRow }> {
  const { renewal } = input;
  const tx = deps.db;
  const { terms, amounts } = sellingTerms(renewal);
  const unpaid = await insertSubscriptionRecord(deps, actor, {
    organizationId: renewal.organizationId,
    terms,
    amounts,
    paymentId: null,
    paid: true,
    validFrom: renewal.periodStart,
    validUntil: renewal.periodEnd,
  });
  const payment = await input.pay(unpaid);
  const subscription = await updateSubscriptionRow(tx, unpaid.id, { paymentId: payment.id });
  await expireUnusedCredits(deps, actor, renewal);
  await insertLedgerEntryOnce(tx, {
    organizationId: renewal.organizationId,
    delta: renewal.credits,
    reason: 'subscription',
    subscriptionId: subscription.id,
    paymentId: payment.id,
    reference: `renewal:${renewal.id}`,
    note: `Renewal credits until ${formatDate(renewal.periodEnd)}`,
    createdBy: actingUserId(actor),
  });
  const settled = await updateRenewal(tx, renewal.id, {
    status: input.status,
    attempts: input.status === 'charged' ? renewal.attempts + 1 : renewal.attempts,
    nextAttemptAt: null,
    chargeLeaseUntil: null,
    lastError: null,
    paymentId: payment.id,
    subscriptionId: subscription.id,
  });
  await restoreIfPaidUp(deps, renewal.organizationId);
  await notifyOrganizationAdmins(deps, actor, {
    organizationId: renewal.organizationId,
    kind: 'renewal_charged',
    title: messages.renewals.chargedTitle,
    body: `${formatRupees(renewal.amountPaise)} was ${input.status === 'charged' ? 'debited' : 'received'} for ${formatCount(renewal.credits)} interview credits until ${formatDate(renewal.periodEnd)}.`,
    link: '/dashboard/billing',
    dedupeKey: `renewal-settled:${renewal.id}`,
  });
  await recordActivity(tx, {
    organizationId: renewal.organizationId,
    actorUserId: actingUserId(actor),
    action: 'updated',
    entityType: 'renewal',
    entityId: renewal.id,
    message: `Renewed: ${formatCount(renewal.credits)} interview credits until ${formatDate(renewal.periodEnd)} (${formatRupees(renewal.amountPaise)})`,
  });
  return { renewal: settled, payment };
}

/**
 * At a renewal, in its transaction (which holds the organization's lock): unused credits above the
 * plan's rollover cap expire, and those carried over are noted, each a ledger entry keyed by the
 * renewal. A plan without a cap expires nothing. The balance never goes below zero.
 */
async function expireUnusedCredits(deps: Deps, actor: Actor | SystemActor, renewal: RenewalRow) {
  const tx = deps.db;
  const plan = await findPlan(tx, renewal.organizationId);
  if (plan?.rolloverCap === null || plan?.rolloverCap === undefined) return;
  const unused = Math.max(0, await creditBalance(tx, renewal.organizationId));
  const expired = Math.max(0, unused - plan.rolloverCap);
  const carried = unused - expired;
  const common = {
    organizationId: renewal.organizationId,
    subscriptionId: null,
    createdBy: actingUserId(actor),
  };
  if (expired > 0) {
    await insertLedgerEntryOnce(tx, {
      ...common,
      delta: -expired,
      reason: 'expiry',
      reference: `expiry:${renewal.id}`,
      note: `${formatCount(expired)} unused credits expired at the renewal (rollover up to ${formatCount(plan.rolloverCap)})`,
    });
  }
  if (carried > 0) {
    await insertLedgerEntryOnce(tx, {
      ...common,
      delta: 0,
      reason: 'rollover',
      reference: `rollover:${renewal.id}`,
      note: `${formatCount(carried)} unused credits carried into ${formatDate(renewal.periodStart)} to ${formatDate(renewal.periodEnd)}`,
    });
  }
}

/**
 * After a payment, in its transaction: a plan that owes nothing more is active again. A suspended one
 * renews again from the period after the one running now (the months it was suspended are not charged).
 */
async function restoreIfPaidUp(deps: Deps, organizationId: string) {
  const now = deps.clock.now();
  const plan = await findPlan(deps.db, organizationId, true);
  if (!plan || plan.status === 'active' || (await owedPaise(deps.db, organizationId, now)) > 0) return;
  let next = { nextPeriod: plan.nextPeriod, nextPeriodStart: plan.nextPeriodStart };
  if (plan.status === 'suspended' && plan.nextPeriodStart <= now) {
    const k = Math.max(plan.nextPeriod, periodAt(plan, now) + 1);
    next = { nextPeriod: k, nextPeriodStart: periodStart(plan, k) };
  }
  await updatePlan(deps.db, organizationId, { status: 'active', pastDueSince: null, ...next });
}
