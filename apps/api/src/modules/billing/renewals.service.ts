import type { z } from 'zod';
import {
  computeAmounts,
  formatCount,
  formatDate,
  formatRupees,
  MANUAL_PAYMENT_RECEIVED_BY,
  MANDATE_SILENT_LIMIT_PAISE,
  messages,
  PRE_DEBIT_NOTICE_LEAD_HOURS,
  PAYABLE_RENEWAL_STATUSES,
  PRE_DEBIT_NOTICE_MIN_HOURS,
  SKIPPABLE_RENEWAL_STATUSES,
  RENEWALS_DUE_WITHIN_DAYS,
  RENEWAL_GRACE_DAYS,
  type BillingPlan,
  type BillingPlanView,
  type manualPaymentInputSchema,
  type PlanCancelled,
  type PlanTermsBody,
  type renewalListQuerySchema,
  type RenewalListItem,
  type Renewal,
  type RenewalStatus,
} from '@portal/shared';
import { conflict, notFound } from '../../lib/errors.js';
import { tenantScope, type Actor, type SystemActor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { withDb, type Deps } from '../../core/deps.js';
import { defineJob } from '../../core/jobs.js';
import { issueInvoice } from '../invoices/index.js';
import { activeOrganizationAdmins, notifyOrganizationAdmins } from '../notifications/index.js';
import { insertLedgerEntryOnce, lockOrganization } from './ledger.repo.js';
import { insertPayment, type PaymentRow } from './payments.repo.js';
import { recordManualPayment } from './payments.service.js';
import { changePlan, notePlanChange } from './plan-changes.js';
import { renewalChargeJob } from './renewal-charges.service.js';
import { renewalNoticeMail } from './renewal-mails.js';
import { settleRenewal } from './renewal-settlement.service.js';
import {
  dueCharges,
  findPlan,
  findRenewal,
  insertRenewal,
  lapseEndedRenewals,
  latestRenewals,
  listRenewalRows,
  lockRenewal,
  markPastDue,
  owedPaise,
  plansToSchedule,
  rescheduleTerms,
  suspendPastDue,
  renewalsToAnnounce,
  skipOpenRenewals,
  updatePlan,
  updateRenewal,
  upsertPlan,
  type PlanRow,
  type RenewalRow,
} from './renewals.repo.js';
import { toPlanDto, toRenewalDto } from './dto.js';
import {
  actingUserId,
  addMonths,
  listScope,
  organizationFor,
  periodAt,
  periodStart,
  requirePlatformBilling,
  sellingTerms,
} from './rules.js';
import { pageEnvelope } from '../../lib/paging.js';
import {
  paidSubscriptionsRunningAt,
  updateSubscriptionRow,
  type SubscriptionRow,
} from './subscriptions.repo.js';
import { runIdempotent } from './idempotency.service.js';
import { applyRefund } from './refunds.service.js';
import { insertSubscriptionRecord } from './subscriptions.service.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How many plans or debits one run takes per query; a run loops until none is left. */
const RUN_BATCH = 200;

function planAmounts(plan: Pick<PlanRow, 'creditsPerPeriod' | 'pricePerCreditPaise' | 'taxRateBp'>) {
  return computeAmounts({
    credits: plan.creditsPerPeriod,
    pricePerCreditPaise: plan.pricePerCreditPaise,
    taxRateBp: plan.taxRateBp,
  });
}

/**
 * The organization's plan from the subscription set up at onboarding, in the caller's transaction:
 * its terms, auto-renewal, and period 0 starting with that subscription.
 */
export async function setUpPlan(
  deps: Deps,
  _actor: Actor,
  input: {
    organizationId: string;
    terms: { totalInterviewCredits: number; interviewCreditsPricePaise: number; taxRateBp: number };
    validFrom: Date;
    autoRenew: boolean;
  },
): Promise<PlanRow> {
  const plan = {
    creditsPerPeriod: input.terms.totalInterviewCredits,
    pricePerCreditPaise: input.terms.interviewCreditsPricePaise,
    taxRateBp: input.terms.taxRateBp,
  };
  return upsertPlan(deps.db, {
    organizationId: input.organizationId,
    ...plan,
    amountPaise: planAmounts(plan).grandTotalPaise,
    autoRenew: input.autoRenew,
    anchorAt: input.validFrom,
    nextPeriod: 1,
    nextPeriodStart: addMonths(input.validFrom, 1),
  });
}

/** GET /api/auth/billing-plan: the plan and its last 12 renewals. */
export async function billingPlanView(
  deps: Deps,
  actor: Actor,
  input: { organizationId?: string | undefined },
): Promise<BillingPlanView> {
  const organizationId = organizationFor(actor, input.organizationId);
  const plan = await findPlan(deps.db, organizationId);
  const renewals = plan ? await latestRenewals(deps.db, organizationId, 12) : [];
  const now = deps.clock.now();
  return {
    plan: plan ? toPlanDto(plan, now, await owedPaise(deps.db, organizationId, now)) : null,
    renewals: renewals.map(toRenewalDto),
  };
}

/** GET /api/auth/renewals: the operator's Renewals view (a tenant sees its own organization's). */
export async function listRenewals(deps: Deps, actor: Actor, query: z.output<typeof renewalListQuerySchema>) {
  const { rows, total } = await listRenewalRows(deps.db, {
    ...query,
    organizationId: listScope(actor, query.organizationId),
  });
  return pageEnvelope(
    query,
    rows.map((row): RenewalListItem => ({
      ...toRenewalDto(row),
      organizationName: row.organizationName,
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    })),
    total,
  );
}

/**
 * PUT /api/auth/billing-plan: automatic renewal on or off. Turned on after its next period began, the
 * plan renews from the period after the one running now: a period that passed unrenewed is not charged.
 */
export async function setAutoRenew(
  deps: Deps,
  actor: Actor,
  input: { organizationId?: string | undefined; autoRenew: boolean },
): Promise<BillingPlan> {
  const organizationId = organizationFor(actor, input.organizationId);
  return changePlan(deps, organizationId, async (tx, current, now) => {
    if (current.autoRenew === input.autoRenew) return current;
    let next = { nextPeriod: current.nextPeriod, nextPeriodStart: current.nextPeriodStart };
    if (input.autoRenew && current.nextPeriodStart <= now) {
      const k = Math.max(current.nextPeriod, periodAt(current, now) + 1);
      next = { nextPeriod: k, nextPeriodStart: periodStart(current, k) };
    }
    const updated = await updatePlan(tx, organizationId, { autoRenew: input.autoRenew, ...next });
    // Off stops what is scheduled or announced too: the pre-debit notice promises it does.
    if (!input.autoRenew) await skipOpenRenewals(tx, organizationId, SKIPPABLE);
    await notePlanChange(tx, {
      organizationId: organizationId,
      actorUserId: actor.userId,
      message: input.autoRenew ? messages.renewals.autoRenewOn : messages.renewals.autoRenewOff,
    });
    return updated;
  });
}

/** How an announced renewal is collected: its status once its notice goes out. */
function announcedStatus(plan: PlanRow | null, amountPaise: number): RenewalStatus {
  if (plan?.collection !== 'mandate' || plan.mandateStatus !== 'authorized') return 'awaiting_payment';
  return amountPaise > MANDATE_SILENT_LIMIT_PAISE ? 'awaiting_authentication' : 'notified';
}

/**
 * Schedules the plan's next period if it starts within RENEWALS_DUE_WITHIN_DAYS and is still
 * unscheduled (another run may have taken it): the renewal row at the plan's terms, and the plan
 * moved on to the following period, in one transaction. A period that already ended (the portal was
 * down) is recorded as lapsed, unannounced and uncharged.
 */
async function scheduleNextPeriod(deps: Deps, organizationId: string, now: Date) {
  return deps.db.transaction(async (tx) => {
    const plan = await findPlan(tx, organizationId, true);
    const scheduleBy = new Date(now.getTime() + RENEWALS_DUE_WITHIN_DAYS * DAY_MS);
    if (!plan || !plan.autoRenew || plan.status === 'suspended' || plan.nextPeriodStart > scheduleBy) {
      return null;
    }
    const k = plan.nextPeriod;
    const start = periodStart(plan, k);
    const end = periodStart(plan, k + 1);
    const renewal = await insertRenewal(tx, {
      organizationId,
      period: k,
      periodStart: start,
      periodEnd: end,
      credits: plan.creditsPerPeriod,
      pricePerCreditPaise: plan.pricePerCreditPaise,
      taxRateBp: plan.taxRateBp,
      amountPaise: planAmounts(plan).grandTotalPaise,
      collection: plan.collection,
      status: end <= now ? 'lapsed' : 'scheduled',
    });
    await updatePlan(tx, organizationId, { nextPeriod: k + 1, nextPeriodStart: end });
    return renewal;
  });
}

/**
 * Announces a scheduled renewal PRE_DEBIT_NOTICE_LEAD_HOURS before its period: how it is collected
 * is decided now (a mandate may have been authorized since it was scheduled), and its notice goes out
 * by mail and in the portal, in one transaction. A debit waits for its period and for its notice to be
 * PRE_DEBIT_NOTICE_MIN_HOURS old, whichever is later.
 */
async function announceRenewal(deps: Deps, actor: SystemActor, renewalId: string, now: Date) {
  return deps.db.transaction(async (tx) => {
    const renewal = await lockRenewal(tx, renewalId);
    if (!renewal || renewal.status !== 'scheduled') return null;
    const plan = await findPlan(tx, renewal.organizationId);
    const status = announcedStatus(plan, renewal.amountPaise);
    const chargeAt = new Date(
      Math.max(renewal.periodStart.getTime(), now.getTime() + PRE_DEBIT_NOTICE_MIN_HOURS * HOUR_MS),
    );
    const announced = await updateRenewal(tx, renewal.id, {
      status,
      collection: plan?.collection ?? renewal.collection,
      noticeSentAt: now,
      nextAttemptAt: status === 'notified' ? chargeAt : null,
    });
    await sendRenewalNotice(withDb(deps, tx), actor, { renewal: announced, chargeAt });
    await recordActivity(tx, {
      organizationId: announced.organizationId,
      actorUserId: null,
      action: 'other',
      entityType: 'renewal',
      entityId: announced.id,
      message:
        status === 'notified'
          ? `Pre-debit notice sent: ${formatRupees(announced.amountPaise)} on ${formatDate(chargeAt)}`
          : status === 'awaiting_authentication'
            ? `Renewal of ${formatRupees(announced.amountPaise)} sent for approval (above ₹15,000)`
            : `Renewal notice sent: ${formatRupees(announced.amountPaise)} due by ${formatDate(announced.periodStart)}`,
    });
    return announced;
  });
}

/** The renewal's notice to the organization's admins, by mail and in the portal. */
async function sendRenewalNotice(
  deps: Deps,
  actor: SystemActor,
  input: { renewal: RenewalRow; chargeAt: Date },
) {
  const { renewal } = input;
  const billingLink = `${deps.env.publicOrigin}/dashboard/billing`;
  const mail = renewalNoticeMail({ renewal, chargeAt: input.chargeAt, billingLink });
  const admins = await activeOrganizationAdmins(deps, actor, { organizationId: renewal.organizationId });
  for (const admin of admins) {
    await deps.mailer.enqueue(deps.db, {
      ...mail,
      to: admin.email,
      organizationId: renewal.organizationId,
      sourceKey: `renewal-notice:${renewal.id}:${admin.id}`,
    });
  }
  await notifyOrganizationAdmins(deps, actor, {
    organizationId: renewal.organizationId,
    kind: 'renewal_notice',
    title: mail.subject,
    body: mail.summary,
    link: '/dashboard/billing',
    dedupeKey: `renewal-notice:${renewal.id}`,
  });
}

const SKIPPABLE: readonly RenewalStatus[] = SKIPPABLE_RENEWAL_STATUSES;
const PAYABLE: readonly RenewalStatus[] = PAYABLE_RENEWAL_STATUSES;

/**
 * POST /api/auth/renewals/:id/skip: the customer opts out of one announced debit before it is taken.
 * The period is not charged and its credits are not granted; the plan renews again the month after.
 */
export async function skipRenewal(deps: Deps, actor: Actor, input: { id: string }): Promise<Renewal> {
  const row = await deps.db.transaction(async (tx) => {
    const found = await findRenewal(tx, input.id, tenantScope(actor));
    if (!found) throw notFound(messages.renewals.renewalNotFound);
    // A debit being taken is `charging`, not `notified`: the claim and this lock exclude each other.
    const renewal = (await lockRenewal(tx, found.id))!;
    if (!SKIPPABLE.includes(renewal.status)) throw conflict(messages.renewals.notSkippable);
    const skipped = await updateRenewal(tx, renewal.id, { status: 'skipped', nextAttemptAt: null });
    await recordActivity(tx, {
      organizationId: skipped.organizationId,
      actorUserId: actor.userId,
      action: 'updated',
      entityType: 'renewal',
      entityId: skipped.id,
      message: `Skipped the renewal of ${formatDate(skipped.periodStart)} (${formatRupees(skipped.amountPaise)})`,
    });
    return skipped;
  });
  return toRenewalDto(row);
}

/**
 * PUT /api/auth/billing-plan/terms: new terms from the next renewal not yet announced (one already
 * announced keeps the terms its notice gave). The price, GST and rollover cap are the operator's.
 */
export async function changePlanTerms(
  deps: Deps,
  actor: Actor,
  input: { organizationId?: string | undefined; body: PlanTermsBody },
): Promise<BillingPlan> {
  const { body } = input;
  const organizationId = organizationFor(actor, input.organizationId);
  const operatorTerms = ['pricePerCreditPaise', 'taxRateBp', 'rolloverCap'] as const;
  if (operatorTerms.some((term) => body[term] !== undefined)) requirePlatformBilling(actor);
  return changePlan(deps, organizationId, async (tx, current) => {
    const terms = {
      creditsPerPeriod: body.creditsPerPeriod ?? current.creditsPerPeriod,
      pricePerCreditPaise: body.pricePerCreditPaise ?? current.pricePerCreditPaise,
      taxRateBp: body.taxRateBp ?? current.taxRateBp,
    };
    const amountPaise = planAmounts(terms).grandTotalPaise;
    const updated = await updatePlan(tx, organizationId, {
      ...terms,
      amountPaise,
      ...(body.rolloverCap !== undefined ? { rolloverCap: body.rolloverCap } : {}),
    });
    await rescheduleTerms(tx, organizationId, {
      credits: terms.creditsPerPeriod,
      pricePerCreditPaise: terms.pricePerCreditPaise,
      taxRateBp: terms.taxRateBp,
      amountPaise,
    });
    await notePlanChange(tx, {
      organizationId: organizationId,
      actorUserId: actor.userId,
      message: `Plan changed to ${formatCount(terms.creditsPerPeriod)} interview credits a month (${formatRupees(amountPaise)}) from the next renewal${updated.rolloverCap === null ? '' : `; unused credits roll over up to ${formatCount(updated.rolloverCap)}`}`,
    });
    return updated;
  });
}

/**
 * A renewal's own order was paid online (verify or webhook), in the caller's transaction, which holds
 * the order's and the organization's locks: settles the renewal with the captured payment and its
 * invoice. Null when the renewal was settled meanwhile by other means; the caller then applies the
 * money as a purchase of the same credits, so nothing paid is lost.
 */
export async function settleRenewalOrder(
  deps: Deps,
  actor: Actor | SystemActor,
  input: { renewalId: string; providerPaymentId: string; providerOrderId: string; provider: string },
): Promise<PaymentRow | null> {
  const tx = deps.db;
  const now = deps.clock.now();
  const renewal = await lockRenewal(tx, input.renewalId);
  if (!renewal || !PAYABLE.includes(renewal.status)) return null;
  const pay = async (subscription: SubscriptionRow) => {
    const captured = await insertPayment(tx, {
      organizationId: renewal.organizationId,
      subscriptionId: subscription.id,
      amountPaise: renewal.amountPaise,
      providerPaymentId: input.providerPaymentId,
      providerOrderId: input.providerOrderId,
      paymentStatus: 'CAPTURED',
      paymentMethod: 'ONLINE',
      paymentCapture: true,
      paymentNotes: `Renewal paid online (${input.provider})`,
      paymentDate: now,
      createdBy: actingUserId(actor),
    });
    await issueInvoice(deps, actor, { payment: captured, subscription, issuedAt: now });
    return captured;
  };
  return (await settleRenewal(deps, actor, { renewal, status: 'paid', pay })).payment;
}

/**
 * An upgrade's order was paid (verify or webhook), in the caller's transaction holding the order's
 * and the organization's locks: the prorated credits until the period's end, as a paid subscription
 * with its invoice, and the plan's new credits a month, which scheduled renewals take too.
 */
export async function applyUpgradeOrder(
  deps: Deps,
  actor: Actor | SystemActor,
  input: {
    organizationId: string;
    credits: number;
    amountPaise: number;
    upgradeToCredits: number;
    providerPaymentId: string;
    providerOrderId: string;
    provider: string;
  },
): Promise<PaymentRow> {
  const tx = deps.db;
  const now = deps.clock.now();
  const plan = (await findPlan(tx, input.organizationId, true))!;
  const k = Math.min(periodAt(plan, now), plan.nextPeriod - 1);
  const { terms, amounts } = sellingTerms({
    credits: input.credits,
    pricePerCreditPaise: plan.pricePerCreditPaise,
    taxRateBp: plan.taxRateBp,
  });
  const subscription = await insertSubscriptionRecord(deps, actor, {
    organizationId: input.organizationId,
    terms,
    amounts,
    paymentId: null,
    paid: true,
    validFrom: now,
    validUntil: periodStart(plan, k + 1),
  });
  const payment = await insertPayment(tx, {
    organizationId: input.organizationId,
    subscriptionId: subscription.id,
    amountPaise: input.amountPaise,
    providerPaymentId: input.providerPaymentId,
    providerOrderId: input.providerOrderId,
    paymentStatus: 'CAPTURED',
    paymentMethod: 'ONLINE',
    paymentCapture: true,
    paymentNotes: `Plan upgrade paid online (${input.provider})`,
    paymentDate: now,
    createdBy: actingUserId(actor),
  });
  await updateSubscriptionRow(tx, subscription.id, { paymentId: payment.id });
  await issueInvoice(deps, actor, { payment, subscription, issuedAt: now });
  await insertLedgerEntryOnce(tx, {
    organizationId: input.organizationId,
    delta: input.credits,
    reason: 'subscription',
    subscriptionId: subscription.id,
    paymentId: payment.id,
    reference: `upgrade:${input.providerPaymentId}`,
    note: `Upgrade to ${formatCount(input.upgradeToCredits)} credits a month: ${formatCount(input.credits)} for the rest of the period`,
    createdBy: actingUserId(actor),
  });
  const newTerms = {
    creditsPerPeriod: input.upgradeToCredits,
    pricePerCreditPaise: plan.pricePerCreditPaise,
    taxRateBp: plan.taxRateBp,
  };
  const amountPaise = planAmounts(newTerms).grandTotalPaise;
  await updatePlan(tx, input.organizationId, { ...newTerms, amountPaise });
  await rescheduleTerms(tx, input.organizationId, {
    credits: newTerms.creditsPerPeriod,
    pricePerCreditPaise: newTerms.pricePerCreditPaise,
    taxRateBp: newTerms.taxRateBp,
    amountPaise,
  });
  await notePlanChange(tx, {
    organizationId: input.organizationId,
    actorUserId: actingUserId(actor),
    message: `Plan upgraded to ${formatCount(input.upgradeToCredits)} interview credits a month (${formatRupees(amountPaise)}); ${formatCount(input.credits)} credits added for the rest of the period`,
  });
  return payment;
}

/**
 * POST /api/auth/billing-plan/cancel-now (the platform operator, with an Idempotency-Key): the plan
 * stops renewing now, what is scheduled or announced is skipped, and each payment of the running
 * period is refunded its unused share (the part of its period still to come) through the refunds and
 * credit notes, which take the matching credits back. One transaction: all of it, or nothing.
 */
export async function cancelPlanNow(
  deps: Deps,
  actor: Actor,
  input: { organizationId?: string | undefined; key: string },
) {
  requirePlatformBilling(actor);
  const organizationId = organizationFor(actor, input.organizationId);
  return runIdempotent<{ success: true; message: string; data: PlanCancelled }>(deps, actor, {
    key: input.key,
    route: 'POST /api/auth/billing-plan/cancel-now',
    payload: { organizationId },
    work: async (txDeps) => {
      const tx = txDeps.db;
      const now = deps.clock.now();
      const plan = await findPlan(tx, organizationId, true);
      if (!plan) throw notFound(messages.renewals.planNotFound);
      let refundedPaise = 0;
      const creditNotes: string[] = [];
      for (const { subscription, payment } of await paidSubscriptionsRunningAt(tx, organizationId, now)) {
        const length = subscription.validUntil.getTime() - subscription.validFrom.getTime();
        const share = (subscription.validUntil.getTime() - now.getTime()) / length;
        const amountPaise = Math.min(
          Math.floor(payment.amountPaise * share),
          payment.amountPaise - payment.refundAmountPaise,
        );
        if (amountPaise < 1) continue;
        const applied = await applyRefund(txDeps, actor, {
          paymentId: payment.id,
          amountPaise,
          reason: messages.renewals.cancelReason,
          asked: true,
        });
        if (applied.changed) creditNotes.push(applied.creditNote.number);
        refundedPaise += amountPaise;
      }
      const updated = await updatePlan(tx, organizationId, { autoRenew: false });
      await skipOpenRenewals(tx, organizationId, SKIPPABLE);
      await notePlanChange(tx, {
        organizationId: organizationId,
        actorUserId: actor.userId,
        message: `Plan cancelled now; ${formatRupees(refundedPaise)} refunded for the rest of the period`,
      });
      const data: PlanCancelled = {
        plan: toPlanDto(updated, now, await owedPaise(tx, organizationId, now)),
        refundedPaise,
        creditNotes,
      };
      return { status: 200, body: { success: true as const, message: messages.renewals.cancelledNow, data } };
    },
  });
}

/**
 * POST /api/auth/renewals/:id/payments: the operator records a payment received for a renewal (a
 * manual customer's, or one whose debit failed or lapsed). Invoiced once, with the period's credits.
 */
export async function recordRenewalPayment(
  deps: Deps,
  actor: Actor,
  input: { id: string; body: z.output<typeof manualPaymentInputSchema> },
): Promise<Renewal> {
  requirePlatformBilling(actor);
  const row = await deps.db.transaction(async (tx) => {
    const txDeps = withDb(deps, tx);
    const found = await findRenewal(tx, input.id, tenantScope(actor));
    if (!found) throw notFound(messages.renewals.renewalNotFound);
    await lockOrganization(tx, found.organizationId);
    const renewal = (await lockRenewal(tx, found.id))!;
    if (!PAYABLE.includes(renewal.status)) throw conflict(messages.renewals.notPayable);
    const { body } = input;
    const pay = async (subscription: SubscriptionRow) => {
      const recorded = await recordManualPayment(txDeps, actor, {
        organizationId: renewal.organizationId,
        subscriptionId: subscription.id,
        amountPaise: renewal.amountPaise,
        paymentMethod: body.paymentMethod.toUpperCase() as Uppercase<typeof body.paymentMethod>,
        paymentCapture: true,
        manualReferenceNumber: body.transactionId,
        paymentProofReference: body.transactionId,
        receivedBy: MANUAL_PAYMENT_RECEIVED_BY,
        paymentNotes: body.remarks || messages.payment.defaultNotes,
        paymentDate: new Date(body.paymentDate),
      });
      return recorded.payment;
    };
    return (await settleRenewal(txDeps, actor, { renewal, status: 'paid', pay })).renewal;
  });
  return toRenewalDto(row);
}

/** Plans owing past their start become past due, and past due ones suspended after the grace days. */
async function applyDunning(deps: Deps, actor: SystemActor, now: Date) {
  return deps.db.transaction(async (tx) => {
    const txDeps = withDb(deps, tx);
    const pastDue = await markPastDue(tx, now);
    const suspended = await suspendPastDue(tx, new Date(now.getTime() - RENEWAL_GRACE_DAYS * DAY_MS));
    const note = (organizationId: string, message: string) =>
      notePlanChange(tx, { organizationId, actorUserId: null, message });
    for (const organizationId of pastDue) {
      await note(organizationId, messages.renewals.pastDueTitle);
      await notifyOrganizationAdmins(txDeps, actor, {
        organizationId,
        kind: 'renewal_failed',
        title: messages.renewals.pastDueTitle,
        body: `Pay what is owed on Billing within ${RENEWAL_GRACE_DAYS} days to keep your subscription.`,
        link: '/dashboard/billing',
      });
    }
    for (const organizationId of suspended) {
      await note(organizationId, messages.renewals.suspendedTitle);
      await notifyOrganizationAdmins(txDeps, actor, {
        organizationId,
        kind: 'renewal_failed',
        title: messages.renewals.suspendedTitle,
        body: 'No new credits are added until what is owed is paid. Pay it on Billing to renew again.',
        link: '/dashboard/billing',
      });
    }
    return { pastDue: pastDue.length, suspended: suspended.length };
  });
}

/**
 * One renewal run, at `deps.clock`'s now: lapses what ended unpaid, schedules every period starting
 * within RENEWALS_DUE_WITHIN_DAYS, announces those within the notice lead, and queues a charge job for
 * each debit whose time has come. Safe in several processes at once: each period is scheduled once
 * (plan row lock, unique period), announced once (renewal row lock), and each charge job is keyed by
 * its renewal.
 */
export async function runRenewals(deps: Deps, actor: SystemActor) {
  const now = deps.clock.now();
  const lapsed = await lapseEndedRenewals(deps.db, now);
  const dunning = await applyDunning(deps, actor, now);
  let scheduled = 0;
  const scheduleBy = new Date(now.getTime() + RENEWALS_DUE_WITHIN_DAYS * DAY_MS);
  for (;;) {
    const due = await plansToSchedule(deps.db, scheduleBy, RUN_BATCH);
    if (due.length === 0) break;
    for (const plan of due) if (await scheduleNextPeriod(deps, plan.organizationId, now)) scheduled++;
  }
  let announced = 0;
  const announceBy = new Date(now.getTime() + PRE_DEBIT_NOTICE_LEAD_HOURS * HOUR_MS);
  for (const renewalId of await renewalsToAnnounce(deps.db, announceBy)) {
    if (await announceRenewal(deps, actor, renewalId, now)) announced++;
  }
  const charges = await dueCharges(deps.db, now);
  for (const renewalId of charges) {
    await deps.jobs.send(deps.db, renewalChargeJob, { renewalId }, { singletonKey: renewalId });
  }
  return { lapsed, ...dunning, scheduled, announced, charges: charges.length };
}

/** The renewal run every 15 minutes (India time), once per slot across processes. */
export const renewalRunJob = defineJob<Record<string, never>>({
  name: 'billing.renewals',
  schedule: '*/15 * * * *',
  queue: () => ({ retryLimit: 2, retryDelaySeconds: 120, retryBackoff: false, expireInSeconds: 900 }),
  run: (deps, actor) => runRenewals(deps, actor),
});
