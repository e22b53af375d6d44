import type { FastifyInstance } from 'fastify';
import {
  formatCount,
  formatRupees,
  meets,
  messages,
  refundCreditsUnavailable,
  REQUIREMENTS,
  creditShare,
  type RefundBody,
  type RefundResult,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import { AppError, forbidden, notFound, unprocessable } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import type { Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { toPaymentDto } from '../billing/dto.js';
import { runIdempotent } from '../billing/idempotency.service.js';
import {
  creditBalance,
  creditsOfPayment,
  insertLedgerEntries,
  lockOrganization,
} from '../billing/ledger.repo.js';
import { lockPayment, recordPaymentRefund, type PaymentRow } from '../billing/payments.repo.js';
import { deliverAll } from '../../core/mail.js';
import { notifyOrganizationAdmins } from '../notifications/notifications.repo.js';
import {
  creditedSoFar,
  findCreditNoteByRefund,
  findInvoiceByPayment,
  insertCreditNote,
  type CreditNoteRow,
} from './invoices.repo.js';
import {
  buyerOf,
  mailToAdmins,
  nextDocumentNumber,
  requireSellerTaxProfile,
  sellerSnapshot,
  toCreditNoteDto,
} from './invoices.service.js';

/**
 * Refunds (docs/product.md, "Tax invoices"): money back through the provider, a credit note against
 * the invoice, and the refunded share of the payment's credits taken back from the ledger.
 */

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

export interface AppliedRefund {
  payment: PaymentRow;
  creditNote: CreditNoteRow;
  invoiceNumber: string;
  creditBalance: number;
  outboxIds: string[];
  /** False when the provider's refund was already recorded (a repeated webhook). */
  changed: boolean;
}

/**
 * Records a refund in the caller's transaction. Without `providerRefund` (a request from the portal)
 * the refund is asked of the provider here, after every check passed; with it (Razorpay's
 * `refund.processed`), the money has gone back already, so it is recorded even when the credits are
 * spent: then only the unused credits are taken back.
 */
export async function applyRefund(
  app: FastifyInstance,
  tx: Db,
  input: {
    paymentId: string;
    amountPaise: number;
    reason: string;
    actorUserId: string | null;
    providerRefund?: { id: string };
  },
): Promise<AppliedRefund> {
  const payment = await lockPayment(tx, input.paymentId, null);
  if (!payment) throw notFound(messages.billing.paymentNotFound);
  const invoice = await findInvoiceByPayment(tx, payment.id);
  if (!invoice) throw unprocessable(messages.refunds.notRefundable);
  if (input.providerRefund) {
    const recorded = await findCreditNoteByRefund(tx, input.providerRefund.id);
    if (recorded) {
      return {
        payment,
        creditNote: recorded,
        invoiceNumber: invoice.number,
        creditBalance: await creditBalance(tx, payment.organizationId),
        outboxIds: [],
        changed: false,
      };
    }
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
    if (!input.providerRefund) throw unprocessable(refundCreditsUnavailable(takeBack, Math.max(0, unused)));
    takeBack = Math.max(0, unused);
  }

  const profile = await requireSellerTaxProfile(tx);
  const refundId = input.providerRefund?.id ?? (await refundAtProvider(app, payment, input));
  const issuedAt = new Date();
  const { buyer } = await buyerOf(tx, payment.organizationId, profile);
  const share = creditShare(
    invoice,
    await creditedSoFar(tx, invoice.id),
    input.amountPaise,
    invoice.intraState,
  );
  const creditNote = await insertCreditNote(tx, {
    ...(await nextDocumentNumber(tx, profile.creditNotePrefix, issuedAt)),
    issuedAt,
    organizationId: payment.organizationId,
    paymentId: payment.id,
    invoiceId: invoice.id,
    refundId,
    reason: input.reason,
    creditsTakenBack: takeBack,
    seller: sellerSnapshot(profile),
    // The place of supply and the tax split are the invoice's: a credit note adjusts that supply.
    buyer: { ...buyer, stateCode: invoice.placeOfSupplyCode },
    placeOfSupplyCode: invoice.placeOfSupplyCode,
    intraState: invoice.intraState,
    sac: invoice.sac,
    description: invoice.description,
    quantity: takeBack,
    unitRatePaise: invoice.unitRatePaise,
    taxRateBp: invoice.taxRateBp,
    ...share,
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
        createdBy: input.actorUserId,
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
    actorUserId: input.actorUserId,
    action: 'updated',
    entityType: 'payment',
    entityId: payment.id,
    message: `Refunded ${amount} of invoice ${invoice.number}: credit note ${creditNote.number}${takenBack}`,
  });
  await notifyOrganizationAdmins(tx, payment.organizationId, {
    kind: 'refund_processed',
    title: messages.refunds.done,
    body: `${amount} was refunded against invoice ${invoice.number} (credit note ${creditNote.number})${takenBack}.`,
    link: '/dashboard/invoices',
  });
  const outboxIds = await mailToAdmins(tx, payment.organizationId, {
    subject: `Credit note ${creditNote.number} for your refund`,
    text: `${amount} was refunded against invoice ${invoice.number}. Credit note ${creditNote.number} is attached.`,
    attachment: { kind: 'credit_note', id: creditNote.id },
  });
  return {
    payment: updated,
    creditNote,
    invoiceNumber: invoice.number,
    creditBalance: await creditBalance(tx, payment.organizationId),
    outboxIds,
    changed: true,
  };
}

/**
 * Asks the provider to refund an online payment; a payment received outside the portal is refunded
 * outside it too, and gets the portal's own refund id. Runs inside the transaction that holds the
 * payment's lock, so two refunds never both pass the amount check. Should the commit fail after the
 * provider refunded, Razorpay's `refund.processed` webhook records the refund.
 */
async function refundAtProvider(
  app: FastifyInstance,
  payment: PaymentRow,
  input: { amountPaise: number; reason: string },
): Promise<string> {
  if (payment.paymentMethod !== 'ONLINE' || !payment.providerPaymentId)
    return `rfnd_manual_${randomToken(12)}`;
  try {
    const refund = await app.paymentProvider.refund({
      providerPaymentId: payment.providerPaymentId,
      amountPaise: input.amountPaise,
      receipt: `refund_${payment.id.slice(0, 8)}_${payment.refundAmountPaise}`,
      notes: { paymentId: payment.id, reason: input.reason.slice(0, 200) },
    });
    return refund.id;
  } catch (error) {
    const e = error as { error?: { description?: unknown }; message?: unknown } | null;
    const reason = e?.error?.description ?? e?.message;
    app.log.warn({ err: error, paymentId: payment.id }, 'refund failed at the provider');
    throw new AppError(
      502,
      `${messages.refunds.failed}: ${typeof reason === 'string' && reason ? reason : 'no answer'}`,
      'REFUND_FAILED',
    );
  }
}

/** POST /api/auth/payments/{id}/refunds, guarded by its Idempotency-Key. */
export async function refundPayment(
  app: FastifyInstance,
  auth: Actor,
  paymentId: string,
  body: RefundBody,
  key: string,
) {
  if (!meets(auth, REQUIREMENTS.refundPayment)) throw forbidden();
  return runIdempotent(
    app,
    { userId: auth.userId, key, route: `POST /api/auth/payments/${paymentId}/refunds`, payload: body },
    async (tx) => {
      const applied = await applyRefund(app, tx, {
        paymentId,
        amountPaise: body.amountPaise,
        reason: body.reason,
        actorUserId: auth.userId,
      });
      const data: RefundResult = {
        payment: toPaymentDto(applied.payment),
        creditNote: toCreditNoteDto(applied.creditNote, applied.invoiceNumber),
        creditBalance: applied.creditBalance,
      };
      return {
        status: 201,
        body: { success: true as const, message: messages.refunds.done, data },
        afterCommit: () => deliverAll(app, applied.outboxIds),
      };
    },
  );
}
