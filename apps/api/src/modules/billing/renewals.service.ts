import type { z } from 'zod';
import type { Db } from '../../db/client.js';
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
  RENEWAL_RETRY_DAYS,
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
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { tenantScope, type Actor, type SystemActor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { withDb, type Deps } from '../../core/deps.js';
import { defineJob } from '../../core/jobs.js';
import { isSandbox, mandateDebitsOf } from '../../core/payments/index.js';
import { issueInvoice } from '../invoices/index.js';
import { activeOrganizationAdmins, notifyOrganizationAdmins } from '../notifications/index.js';
import { creditBalance, insertLedgerEntryOnce, lockOrganization } from './ledger.repo.js';
import { insertPayment, type PaymentRow } from './payments.repo.js';
import { recordManualPayment } from './payments.service.js';
import { renewalNoticeMail } from './renewal-mails.js';
import {
  claimDueCharge,
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
  awaitPaymentInstead,
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
 * Changes the organization's plan under its row lock, in one transaction (`change` answers the plan
 * as it leaves it), then answers it as the API shows it. 404 when the organization has no plan.
 */
async function changePlan(
  deps: Deps,
  organizationId: string,
  change: (tx: Db, current: PlanRow, now: Date) => Promise<PlanRow>,
): Promise<BillingPlan> {
  const now = deps.clock.now();
  const plan = await deps.db.transaction(async (tx) => {
    const current = await findPlan(tx, organizationId, true);
    if (!current) throw notFound(messages.renewals.planNotFound);
    return change(tx, current, now);
  });
  return toPlanDto(plan, now, await owedPaise(deps.db, organizationId, now));
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

/**
 * POST /api/admin/payment/sandbox/mandate: the sandbox's checkout registers a card mandate for the
 * caller's organization, for at most the plan's amount a month; debits then go to the mandate.
 */
export async function authorizeSandboxMandate(
  deps: Deps,
  actor: Actor,
  input: { cardNumber: string },
): Promise<BillingPlan> {
  if (!isSandbox(deps.payments)) throw notFound();
  const token = deps.payments.authorizeMandate(input.cardNumber);
  if (!token) {
    throw new AppError(402, messages.billing.cardDeclined, 'PAYMENT_FAILED', { cardNumber: ['declined'] });
  }
  return changePlan(deps, actor.organizationId, async (tx, current) => {
    const updated = await updatePlan(tx, actor.organizationId, {
      collection: 'mandate',
      mandateStatus: 'authorized',
      mandateToken: token,
      mandateMaxPaise: current.amountPaise,
    });
    await notePlanChange(tx, {
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      message: `Card mandate authorized for up to ${formatRupees(current.amountPaise)} a month`,
    });
    return updated;
  });
}

/**
 * POST /api/auth/billing-plan/mandate/cancel: the customer cancels the card mandate. Nothing is
 * debited from it again: an announced or declined debit waits to be paid like a manual renewal.
 */
export async function cancelMandate(
  deps: Deps,
  actor: Actor,
  input: { organizationId?: string | undefined },
): Promise<BillingPlan> {
  const organizationId = organizationFor(actor, input.organizationId);
  return changePlan(deps, organizationId, async (tx, current) => {
    if (current.mandateStatus !== 'authorized') throw conflict(messages.renewals.noMandate);
    const updated = await updatePlan(tx, organizationId, {
      collection: 'manual',
      mandateStatus: 'cancelled',
      mandateToken: null,
    });
    await awaitPaymentInstead(tx, organizationId);
    await notePlanChange(tx, {
      organizationId: organizationId,
      actorUserId: actor.userId,
      message: 'Card mandate cancelled: renewals are paid through their notice',
    });
    return updated;
  });
}

/** A change of the plan, in the organization's activity (and its subscription timeline). */
function notePlanChange(
  db: Deps['db'],
  entry: { organizationId: string; actorUserId: string | null; message: string },
) {
  return recordActivity(db, {
    ...entry,
    action: 'updated',
    entityType: 'billing_plan',
    entityId: entry.organizationId,
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
 * Records what paid a renewal, in the caller's transaction: its subscription for the period, the
 * payment (`pay`, given the subscription, records it and its tax invoice), the period's credits
 * (granted once: the ledger reference is the renewal) and the post-debit alert.
 */
async function settleRenewal(
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
 * When a failed debit is tried again: RENEWAL_RETRY_DAYS after its first failure (the previous retry
 * was planned for first failure + the previous offset); null after the last.
 */
function nextRetry(renewal: RenewalRow, failures: number, now: Date): Date | null {
  const days = RENEWAL_RETRY_DAYS[failures - 1];
  if (days === undefined) return null;
  const previous = RENEWAL_RETRY_DAYS[failures - 2];
  const firstFailure =
    previous === undefined ? now : new Date(renewal.nextAttemptAt!.getTime() - previous * DAY_MS);
  return new Date(firstFailure.getTime() + days * DAY_MS);
}

/**
 * Debits one due renewal on its mandate. The provider is asked with a receipt naming the renewal and
 * the attempt, and a new attempt begins only once the last one's outcome is recorded: a process
 * killed after the provider answered asks again with the same receipt and is answered the same
 * debit, so no period is charged twice (docs/decisions/027).
 */
export async function chargeRenewal(
  deps: Deps,
  actor: SystemActor,
  input: { renewalId: string },
): Promise<RenewalStatus | null> {
  const now = deps.clock.now();
  const claimed = await claimDueCharge(deps.db, input.renewalId, now);
  if (!claimed) return null;
  const plan = await findPlan(deps.db, claimed.organizationId);
  const debits = mandateDebitsOf(deps.payments);
  const attempt = claimed.attempts + 1;
  const outcome =
    debits && plan?.mandateStatus === 'authorized' && plan.mandateToken
      ? await debits.chargeMandate({
          mandateToken: plan.mandateToken,
          amountPaise: claimed.amountPaise,
          receipt: `renewal:${claimed.id}:${attempt}`,
        })
      : { status: 'failed' as const, reason: 'The mandate is no longer authorized.' };

  return deps.db.transaction(async (tx) => {
    const txDeps = withDb(deps, tx);
    await lockOrganization(tx, claimed.organizationId);
    const renewal = await lockRenewal(tx, claimed.id);
    // Another process recorded this attempt first.
    if (!renewal || renewal.status !== 'charging' || renewal.attempts !== claimed.attempts) return null;
    if (outcome.status === 'captured') {
      const pay = async (subscription: SubscriptionRow) => {
        const payment = await insertPayment(tx, {
          organizationId: renewal.organizationId,
          subscriptionId: subscription.id,
          amountPaise: renewal.amountPaise,
          providerPaymentId: outcome.providerPaymentId,
          paymentStatus: 'CAPTURED',
          paymentMethod: 'ONLINE',
          paymentCapture: true,
          paymentNotes: `Renewal debit on the card mandate (${deps.payments.name})`,
          paymentDate: now,
        });
        await issueInvoice(txDeps, actor, { payment, subscription, issuedAt: now });
        return payment;
      };
      return (await settleRenewal(txDeps, actor, { renewal, status: 'charged', pay })).renewal.status;
    }
    // No retry after the period's end: the renewal then waits to be paid.
    const planned = nextRetry(renewal, attempt, now);
    const retryAt = planned && planned < renewal.periodEnd ? planned : null;
    await updateRenewal(tx, renewal.id, {
      status: 'failed',
      attempts: attempt,
      lastError: outcome.reason,
      nextAttemptAt: retryAt,
    });
    await recordActivity(tx, {
      organizationId: renewal.organizationId,
      actorUserId: null,
      action: 'other',
      entityType: 'renewal',
      entityId: renewal.id,
      message: `Debit of ${formatRupees(renewal.amountPaise)} declined (try ${attempt}): ${outcome.reason}${retryAt ? ` Next try ${formatDate(retryAt)}.` : ''}`,
    });
    await notifyOrganizationAdmins(txDeps, actor, {
      organizationId: renewal.organizationId,
      kind: 'renewal_failed',
      title: messages.renewals.failedTitle,
      body: `${formatRupees(renewal.amountPaise)} could not be debited: ${outcome.reason} ${retryAt ? `It will be tried again on ${formatDate(retryAt)}.` : 'Pay it on the Billing page to keep your credits coming.'}`,
      link: '/dashboard/billing',
      dedupeKey: `renewal-failed:${renewal.id}:${attempt}`,
    });
    return 'failed';
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

/** Charges one due renewal (queued by the renewal run, one job per renewal). */
export const renewalChargeJob = defineJob<{ renewalId: string }>({
  name: 'billing.renewal-charge',
  batchSize: 5,
  // A try cut short (its process died) expires after a minute and is taken again, asking with the
  // same receipt; one that failed (the database, the provider unreachable) after 10 s, doubling.
  queue: () => ({ retryLimit: 5, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 60 }),
  run: (deps, actor, job) => chargeRenewal(deps, actor, job.data),
});

/** The renewal run every 15 minutes (India time), once per slot across processes. */
export const renewalRunJob = defineJob<Record<string, never>>({
  name: 'billing.renewals',
  schedule: '*/15 * * * *',
  queue: () => ({ retryLimit: 2, retryDelaySeconds: 120, retryBackoff: false, expireInSeconds: 900 }),
  run: (deps, actor) => runRenewals(deps, actor),
});
