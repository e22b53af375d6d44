import {
  formatCount,
  formatRupees,
  meets,
  messages,
  refundCreditsUnavailable,
  REQUIREMENTS,
  type CreditNote,
  type RefundBody,
  type RefundResult,
} from '@portal/shared';
import { AppError, forbidden, notFound, unprocessable } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import type { Actor, SystemActor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { withDb, type Deps } from '../../core/deps.js';
import {
  creditNoteRecorded,
  invoiceOfPayment,
  issueCreditNote,
  requireSellerTaxProfile,
} from '../invoices/index.js';
import { notifyOrganizationAdmins } from '../notifications/index.js';
import { toPaymentDto } from './dto.js';
import { runIdempotent } from './idempotency.service.js';
import { creditBalance, creditsOfPayment, insertLedgerEntries, lockOrganization } from './ledger.repo.js';
import { lockPayment, recordPaymentRefund, type PaymentRow } from './payments.repo.js';
import { actingUserId, creditsToTakeBack } from './rules.js';

/**
 * Refunds (docs/product.md, "Tax invoices"): money back through the provider, a credit note against
 * the invoice (asked of invoices, in the same transaction), and the refunded share of the payment's
 * credits taken back from the ledger.
 */

export type AppliedRefund =
  | {
      changed: true;
      payment: PaymentRow;
      creditNote: CreditNote;
      creditBalance: number;
    }
  /** The provider's refund was already recorded (a repeated webhook): nothing changed. */
  | { changed: false };

/** A refund to record: asked of the provider here (`asked`), or already made there (its webhook). */
export type RefundToApply = { paymentId: string; amountPaise: number; reason: string } & (
  { asked: true } | { providerRefund: { id: string } }
);

/**
 * Records a refund, as part of the caller's transaction (`withDb(deps, tx)`). Asked by the portal, the
 * refund is asked of the provider here, after every check passed; from Razorpay's `refund.processed`
 * (`providerRefund`), the money has gone back already, so it is recorded even when the credits are
 * spent: then only the unused credits are taken back.
 */
export async function applyRefund(
  deps: Deps,
  actor: Actor | SystemActor,
  input: RefundToApply,
): Promise<AppliedRefund> {
  return deps.db.transaction((tx) => applyInTransaction(withDb(deps, tx), actor, input));
}

async function applyInTransaction(
  deps: Deps,
  actor: Actor | SystemActor,
  input: RefundToApply,
): Promise<AppliedRefund> {
  const tx = deps.db;
  const actorUserId = actingUserId(actor);
  // The payment's lock makes two refunds of it (or two deliveries of one webhook) run one after the other.
  const payment = await lockPayment(tx, input.paymentId, null);
  if (!payment) throw notFound(messages.billing.paymentNotFound);
  const invoice = await invoiceOfPayment(deps, actor, { paymentId: payment.id });
  if (!invoice) throw unprocessable(messages.refunds.notRefundable);
  if (
    'providerRefund' in input &&
    (await creditNoteRecorded(deps, actor, { refundId: input.providerRefund.id }))
  ) {
    return { changed: false };
  }
  if (input.amountPaise > payment.amountPaise - payment.refundAmountPaise) {
    throw unprocessable(messages.refunds.amountTooLarge);
  }

  await lockOrganization(tx, payment.organizationId);
  const credits = await creditsOfPayment(tx, payment.id);
  const unused = await creditBalance(tx, payment.organizationId);
  let takeBack = creditsToTakeBack({
    ...credits,
    paidPaise: payment.amountPaise,
    refundedPaise: payment.refundAmountPaise + input.amountPaise,
  });
  if (takeBack > unused) {
    if (!('providerRefund' in input)) {
      throw unprocessable(refundCreditsUnavailable(takeBack, Math.max(0, unused)));
    }
    takeBack = Math.max(0, unused);
  }

  // No money goes back before the credit note can be issued.
  await requireSellerTaxProfile(deps, actor);
  const refundId =
    'providerRefund' in input ? input.providerRefund.id : await refundAtProvider(deps, payment, input);
  const issuedAt = deps.clock.now();
  const { creditNote } = await issueCreditNote(deps, actor, {
    payment,
    refundId,
    reason: input.reason,
    amountPaise: input.amountPaise,
    creditsTakenBack: takeBack,
    issuedAt,
  });
  if (takeBack > 0) {
    await insertLedgerEntries(tx, [
      {
        organizationId: payment.organizationId,
        delta: -takeBack,
        reason: 'refund',
        paymentId: payment.id,
        subscriptionId: payment.subscriptionId,
        reference: refundId,
        note: `Refund ${refundId}: credit note ${creditNote.number}`,
        createdBy: actorUserId,
      },
    ]);
  }
  const updated = await recordPaymentRefund(tx, payment, {
    amountPaise: input.amountPaise,
    refundId,
    at: issuedAt,
  });
  const amount = formatRupees(input.amountPaise);
  const takenBack = takeBack > 0 ? `; ${formatCount(takeBack)} credits taken back` : '';
  await recordActivity(tx, {
    organizationId: payment.organizationId,
    actorUserId,
    action: 'updated',
    entityType: 'payment',
    entityId: payment.id,
    message: `Refunded ${amount} of invoice ${invoice.number}: credit note ${creditNote.number}${takenBack}`,
  });
  await notifyOrganizationAdmins(deps, actor, {
    organizationId: payment.organizationId,
    kind: 'refund_processed',
    title: messages.refunds.done,
    body: `${amount} was refunded against invoice ${invoice.number} (credit note ${creditNote.number})${takenBack}.`,
    link: '/dashboard/invoices',
  });
  return {
    changed: true,
    payment: updated,
    creditNote,
    creditBalance: await creditBalance(tx, payment.organizationId),
  };
}

/**
 * Asks the provider to refund an online payment; a payment received outside the portal is refunded
 * outside it too, and gets the portal's own refund id. Runs inside the transaction that holds the
 * payment's lock, so two refunds never both pass the amount check. Should the commit fail after the
 * provider refunded, Razorpay's `refund.processed` webhook records the refund.
 */
async function refundAtProvider(
  deps: Deps,
  payment: PaymentRow,
  input: { amountPaise: number; reason: string },
): Promise<string> {
  if (payment.paymentMethod !== 'ONLINE' || !payment.providerPaymentId)
    return `rfnd_manual_${randomToken(12)}`;
  try {
    const refund = await deps.payments.refund({
      providerPaymentId: payment.providerPaymentId,
      amountPaise: input.amountPaise,
      receipt: `refund_${payment.id.slice(0, 8)}_${payment.refundAmountPaise}`,
      notes: { paymentId: payment.id, reason: input.reason.slice(0, 200) },
    });
    return refund.id;
  } catch (error) {
    const e = error as { error?: { description?: unknown }; message?: unknown } | null;
    const reason = e?.error?.description ?? e?.message;
    deps.log.warn({ err: error, paymentId: payment.id }, 'refund failed at the provider');
    throw new AppError(
      502,
      `${messages.refunds.failed}: ${typeof reason === 'string' && reason ? reason : 'no answer'}`,
      'REFUND_FAILED',
    );
  }
}

/** POST /api/auth/payments/{id}/refunds, guarded by its Idempotency-Key. */
export async function refundPayment(
  deps: Deps,
  actor: Actor,
  input: { id: string; body: RefundBody; key: string },
) {
  const { id, body, key } = input;
  if (!meets(actor, REQUIREMENTS.refundPayment)) throw forbidden();
  return runIdempotent(deps, actor, {
    key,
    route: `POST /api/auth/payments/${id}/refunds`,
    payload: body,
    work: async (txDeps) => {
      const applied = await applyRefund(txDeps, actor, {
        paymentId: id,
        amountPaise: body.amountPaise,
        reason: body.reason,
        asked: true,
      });
      // Only a provider's webhook names a refund already recorded.
      if (!applied.changed) throw new Error('a refund asked by the portal is always new');
      const data: RefundResult = {
        payment: toPaymentDto(applied.payment),
        creditNote: applied.creditNote,
        creditBalance: applied.creditBalance,
      };
      return {
        status: 201,
        body: { success: true as const, message: messages.refunds.done, data },
        afterCommit: async () => deps.metrics.business.refunded(body.amountPaise),
      };
    },
  });
}
