import type { z } from 'zod';
import {
  creditShare,
  formatRupees,
  messages,
  type CreditNote,
  type invoiceListQuerySchema,
} from '@portal/shared';
import { unprocessable } from '../../lib/errors.js';
import { pageEnvelope } from '../../lib/paging.js';
import { tenantScope, type Actor, type SystemActor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { renderCreditNotePdf, type DocumentPdf } from './document-pdfs.js';
import { toCreditNoteDto } from './dto.js';
import {
  creditedSoFar,
  findCreditNoteByRefund,
  findInvoiceByPayment,
  insertCreditNote,
  listCreditNoteRows,
} from './invoices.repo.js';
import {
  buyerOf,
  mailToAdmins,
  nextDocumentNumber,
  sellerProfileOrRefuse,
  sellerSnapshot,
} from './issuing.js';

/**
 * Credit notes (docs/product.md, "Tax invoices"): a refund's document against the payment's invoice.
 * Billing moves the money and the credits; it asks here for the note, in its own transaction.
 */

/** A refund as its credit note states it. */
export interface CreditNoteRequest {
  /** The refunded payment: the note adjusts its invoice. */
  payment: { id: string; organizationId: string };
  /** The provider's refund id (or the portal's own, for a payment received outside it). */
  refundId: string;
  reason: string;
  /** What is refunded now, tax included. */
  amountPaise: number;
  /** Credits the refund takes back: the note's quantity. */
  creditsTakenBack: number;
  issuedAt: Date;
}

export interface IssuedCreditNote {
  creditNote: CreditNote;
}

/** Whether a credit note records this refund already (a provider's webhook may repeat). */
export async function creditNoteRecorded(
  deps: Deps,
  _actor: Actor | SystemActor,
  input: { refundId: string },
): Promise<boolean> {
  return (await findCreditNoteByRefund(deps.db, input.refundId)) !== null;
}

/**
 * Issues a refund's credit note against the payment's invoice and mails it to the organization's
 * admins; called with `withDb(deps, tx)` it is part of the refund's transaction. Its figures are the
 * refunded share of the invoice's (shared `creditShare`), so the notes add up to the invoice.
 */
export async function issueCreditNote(
  deps: Deps,
  actor: Actor | SystemActor,
  input: CreditNoteRequest,
): Promise<IssuedCreditNote> {
  const { payment, issuedAt } = input;
  return deps.db.transaction(async (tx) => {
    const invoice = await findInvoiceByPayment(tx, payment.id);
    if (!invoice) throw unprocessable(messages.refunds.notRefundable);
    const profile = await sellerProfileOrRefuse(tx);
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
      refundId: input.refundId,
      reason: input.reason,
      creditsTakenBack: input.creditsTakenBack,
      seller: sellerSnapshot(profile),
      // The place of supply and the tax split are the invoice's: a credit note adjusts that supply.
      buyer: { ...buyer, stateCode: invoice.placeOfSupplyCode },
      placeOfSupplyCode: invoice.placeOfSupplyCode,
      intraState: invoice.intraState,
      sac: invoice.sac,
      description: invoice.description,
      quantity: input.creditsTakenBack,
      unitRatePaise: invoice.unitRatePaise,
      taxRateBp: invoice.taxRateBp,
      ...share,
    });
    const amount = formatRupees(input.amountPaise);
    await mailToAdmins(withDb(deps, tx), actor, payment.organizationId, {
      kind: 'credit_note',
      subject: `Credit note ${creditNote.number} for your refund`,
      text: `${amount} was refunded against invoice ${invoice.number}. Credit note ${creditNote.number} is attached.`,
      attachment: { kind: 'credit_note', id: creditNote.id },
    });
    return { creditNote: toCreditNoteDto(creditNote, invoice.number) };
  });
}

type ListQuery = z.output<typeof invoiceListQuerySchema>;

export async function listCreditNotes(deps: Deps, actor: Actor, query: ListQuery) {
  const { rows, total } = await listCreditNoteRows(deps.db, query, tenantScope(actor));
  return pageEnvelope(
    query,
    rows.map((r) => toCreditNoteDto(r, r.invoiceNumber)),
    total,
  );
}

export function creditNotePdf(deps: Deps, actor: Actor, input: { id: string }): Promise<DocumentPdf> {
  return renderCreditNotePdf(deps.db, deps.workers, input.id, tenantScope(actor));
}
