import {
  formatDate,
  formatRupees,
  messages,
  PAYABLE_RENEWAL_STATUSES,
  RENEWAL_RETRY_DAYS,
  type RenewalStatus,
} from '@portal/shared';
import type { SystemActor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { withDb, type Deps } from '../../core/deps.js';
import { defineJob } from '../../core/jobs.js';
import { mandateDebitsOf, type MandateCharge } from '../../core/payments/index.js';
import { issueInvoice } from '../invoices/index.js';
import { notifyOrganizationAdmins } from '../notifications/index.js';
import { lockOrganization } from './ledger.repo.js';
import { insertPayment } from './payments.repo.js';
import { settleRenewal } from './renewal-settlement.service.js';
import { debitReceipt } from './rules.js';
import {
  claimDueCharge,
  findPlan,
  findRenewal,
  lockRenewal,
  updateRenewal,
  type RenewalRow,
} from './renewals.repo.js';
import type { SubscriptionRow } from './subscriptions.repo.js';

const DAY_MS = 86_400_000;
/** A debit being asked of the provider is held this long, under its job's minute: no other process asks meanwhile. */
const CHARGE_LEASE_MS = 45_000;
/** A debit the provider has not answered is asked about again after this, unless its webhook came first. */
const PENDING_RECHECK_MS = 15 * 60_000;
const PAYABLE: readonly RenewalStatus[] = PAYABLE_RENEWAL_STATUSES;

/** The notes a debit carries to the provider, which its webhooks bring back. */
function debitNotes(renewalId: string, attempt: number): Record<string, string> {
  return { purpose: 'renewal', renewal_id: renewalId, attempt: String(attempt) };
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
 * debit, so no period is charged twice (docs/decisions/027). The claim's lease keeps a second
 * process from asking while one does.
 */
export async function chargeRenewal(
  deps: Deps,
  actor: SystemActor,
  input: { renewalId: string },
): Promise<RenewalStatus | null> {
  const now = deps.clock.now();
  const claimed = await claimDueCharge(
    deps.db,
    input.renewalId,
    now,
    new Date(now.getTime() + CHARGE_LEASE_MS),
  );
  if (!claimed) return null;
  const plan = await findPlan(deps.db, claimed.organizationId);
  const debits = mandateDebitsOf(deps.payments);
  const attempt = claimed.attempts + 1;
  const outcome: MandateCharge =
    debits && plan?.mandateStatus === 'authorized' && plan.mandateToken
      ? await debits.chargeMandate({
          mandate: { token: plan.mandateToken, customerId: plan.mandateCustomerId },
          amountPaise: claimed.amountPaise,
          receipt: debitReceipt(claimed.id, attempt),
          notes: debitNotes(claimed.id, attempt),
        })
      : { status: 'failed', reason: 'The mandate is no longer authorized.' };
  const recorded = await recordDebitOutcome(deps, actor, { renewalId: claimed.id, attempt, outcome });
  recorded?.counted();
  return recorded?.status ?? null;
}

/**
 * Records what came of a renewal's debit attempt, from its job or from the provider's webhook, once:
 * the renewal must be `charging` that attempt. A pending debit stays `charging`, asked again after
 * PENDING_RECHECK_MS. A capture reported after its attempt was recorded as declined (a bank's late
 * answer) settles the renewal if it is still unpaid. Null when nothing changed; `counted` counts the
 * outcome in the metrics once the caller's transaction committed.
 */
export async function recordDebitOutcome(
  deps: Deps,
  actor: SystemActor,
  input: { renewalId: string; attempt: number; outcome: MandateCharge; providerOrderId?: string },
): Promise<{ status: RenewalStatus; counted: () => void } | null> {
  const { attempt, outcome } = input;
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const txDeps = withDb(deps, tx);
    const found = await findRenewal(tx, input.renewalId, null);
    if (!found) return null;
    await lockOrganization(tx, found.organizationId);
    const renewal = (await lockRenewal(tx, found.id))!;
    const inFlight = renewal.status === 'charging' && renewal.attempts === attempt - 1;
    const lateCapture =
      outcome.status === 'captured' && PAYABLE.includes(renewal.status) && renewal.attempts === attempt;
    if (!inFlight && !lateCapture) {
      if (outcome.status === 'captured' && renewal.paymentId === null) {
        deps.log.error(
          { renewalId: renewal.id, attempt, providerPaymentId: outcome.providerPaymentId },
          'a renewal debit was captured while another attempt is in flight: refund one of them at the provider',
        );
      }
      return null;
    }
    if (outcome.status === 'pending') {
      await updateRenewal(tx, renewal.id, {
        chargeLeaseUntil: new Date(now.getTime() + PENDING_RECHECK_MS),
        lastError: 'Waiting for the bank to answer the debit.',
      });
      return { status: 'charging' as const, counted: () => {} };
    }
    if (outcome.status === 'captured') {
      const pay = async (subscription: SubscriptionRow) => {
        const payment = await insertPayment(tx, {
          organizationId: renewal.organizationId,
          subscriptionId: subscription.id,
          amountPaise: renewal.amountPaise,
          providerPaymentId: outcome.providerPaymentId,
          providerOrderId: input.providerOrderId ?? null,
          paymentStatus: 'CAPTURED',
          paymentMethod: 'ONLINE',
          paymentCapture: true,
          paymentNotes: `Renewal debit on the card mandate (${deps.payments.name})`,
          paymentDate: now,
        });
        await issueInvoice(txDeps, actor, { payment, subscription, issuedAt: now });
        return payment;
      };
      const settled = await settleRenewal(txDeps, actor, {
        renewal: { ...renewal, attempts: attempt - 1 },
        status: 'charged',
        pay,
      });
      return {
        status: settled.renewal.status,
        counted: () =>
          deps.metrics.business.renewalCharged({
            amountPaise: renewal.amountPaise,
            credits: renewal.credits,
          }),
      };
    }
    // No retry after the period's end: the renewal then waits to be paid.
    const planned = nextRetry(renewal, attempt, now);
    const retryAt = planned && planned < renewal.periodEnd ? planned : null;
    await updateRenewal(tx, renewal.id, {
      status: 'failed',
      attempts: attempt,
      lastError: outcome.reason,
      nextAttemptAt: retryAt,
      chargeLeaseUntil: null,
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
    return { status: 'failed' as const, counted: () => deps.metrics.business.renewalFailed('declined') };
  });
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
