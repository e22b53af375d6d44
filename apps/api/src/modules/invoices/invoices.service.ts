import {
  DEFAULT_GST_RATE_BP,
  documentNumber,
  DOCUMENT_SEQUENCE_MAX,
  financialYearOf,
  formatRupees,
  messages,
  splitTax,
  stateByCode,
  type CreditNote,
  type Invoice,
  type invoiceListQuerySchema,
} from '@portal/shared';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { MailAttachmentRef, PartySnapshot, SellerSnapshot } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { insertOutboxMail } from '../../core/outbox.repo.js';
import { activeOrganizationAdmins, notifyOrganizationAdmins } from '../notifications/notifications.repo.js';
import type { PaymentRow } from '../billing/payments.repo.js';
import type { SubscriptionRow } from '../billing/subscriptions.repo.js';
import type { AttachmentRenderer } from '../../core/mail.js';
import type { TaxDocument } from './invoice-pdf.js';
import type { PdfRenderer } from './pdf-renderer.js';
import {
  findBuyerParticulars,
  findCreditNote,
  findInvoice,
  findSellerTaxProfile,
  insertInvoice,
  listCreditNoteRows,
  listInvoiceRows,
  refundedSoFar,
  takeNextNumber,
  type CreditNoteRow,
  type InvoiceRow,
  type SellerTaxProfileRow,
} from './invoices.repo.js';

/**
 * Tax invoices (docs/product.md, "Tax invoices"): one per captured payment, issued in the payment's
 * own transaction, numbered per financial year without gaps, never changed afterwards.
 */

/** Issuing needs the seller's particulars; a payment is refused until they are set up. */
export async function requireSellerTaxProfile(db: Db): Promise<SellerTaxProfileRow> {
  const profile = await findSellerTaxProfile(db);
  if (!profile) throw new AppError(409, messages.tax.profileMissing, 'TAX_PROFILE_MISSING');
  return profile;
}

export function sellerSnapshot(profile: SellerTaxProfileRow): SellerSnapshot {
  return {
    name: profile.legalName,
    address: profile.address,
    gstin: profile.gstin,
    stateCode: profile.stateCode,
    pan: profile.pan,
    signatory: profile.signatory,
  };
}

/** The buyer as the invoice states them, and the place of supply that decides CGST+SGST or IGST. */
export async function buyerOf(db: Db, organizationId: string, seller: SellerTaxProfileRow) {
  const row = await findBuyerParticulars(db, organizationId);
  const address = row?.address
    ? [row.address, [row.city, row.state, row.pincode].filter(Boolean).join(', '), row.country]
        .filter(Boolean)
        .join('\n')
    : '';
  // A registered buyer's place of supply is their GSTIN's state; an unregistered one's, the state on
  // record, else the supplier's own (section 12(2) of the IGST Act).
  const placeOfSupplyCode = row?.gstin?.slice(0, 2) ?? row?.gstStateCode ?? seller.stateCode;
  const buyer: PartySnapshot = {
    name: row?.name ?? row?.organizationName ?? '',
    address,
    gstin: row?.gstin ?? null,
    stateCode: placeOfSupplyCode,
  };
  return { buyer, placeOfSupplyCode, intraState: placeOfSupplyCode === seller.stateCode };
}

/**
 * The next number with `prefix`, or a clear refusal once a year's six digits are used up. A prefix
 * is a series of its own, whichever kind of document carries it: changing or swapping the prefixes
 * mid-year never gives a number twice (GST Rule 46; docs/decisions/020).
 */
export async function nextDocumentNumber(tx: Db, prefix: string, issuedAt: Date) {
  const year = financialYearOf(issuedAt).label;
  const sequence = await takeNextNumber(tx, prefix, year);
  if (sequence > DOCUMENT_SEQUENCE_MAX) {
    throw new AppError(409, messages.tax.sequenceExhausted, 'SEQUENCE_EXHAUSTED');
  }
  return { financialYear: year, sequence, number: documentNumber(prefix, year, sequence) };
}

/** Mails a document to the organization's admins through the outbox; the ids to deliver after commit. */
export async function mailToAdmins(
  tx: Db,
  organizationId: string,
  mail: { subject: string; text: string; attachment: MailAttachmentRef },
): Promise<string[]> {
  const ids: string[] = [];
  for (const { email: to } of await activeOrganizationAdmins(tx, organizationId)) {
    ids.push(
      await insertOutboxMail(tx, {
        to,
        subject: mail.subject,
        text: mail.text,
        attachments: [mail.attachment],
      }),
    );
  }
  return ids;
}

export interface IssuedInvoice {
  invoice: InvoiceRow;
  /** Receipt mails to deliver once the transaction committed. */
  outboxIds: string[];
}

/**
 * Issues the invoice of a captured payment inside the caller's transaction, with the receipt mail
 * and notification. A subscription the payment pays in full gives the agreed taxable value, credits
 * and price; any other amount is split at the rate (18 % when nothing says otherwise).
 */
export async function issueInvoice(
  tx: Db,
  input: { payment: PaymentRow; subscription: SubscriptionRow | null; issuedAt?: Date },
): Promise<IssuedInvoice> {
  const { payment, subscription } = input;
  const issuedAt = input.issuedAt ?? new Date();
  const profile = await requireSellerTaxProfile(tx);
  const { buyer, placeOfSupplyCode, intraState } = await buyerOf(tx, payment.organizationId, profile);
  const paidInFull = subscription !== null && subscription.grandTotalAmountPaise === payment.amountPaise;
  const taxRateBp = subscription?.taxRateBp ?? DEFAULT_GST_RATE_BP;
  const split = splitTax({
    totalPaise: payment.amountPaise,
    taxRateBp,
    intraState,
    ...(paidInFull ? { taxableValuePaise: subscription.totalAmountPaise } : {}),
  });
  const quantity = subscription?.totalInterviewCredits ?? 1;
  const numbering = await nextDocumentNumber(tx, profile.invoicePrefix, issuedAt);
  const invoice = await insertInvoice(tx, {
    ...numbering,
    issuedAt,
    organizationId: payment.organizationId,
    paymentId: payment.id,
    seller: sellerSnapshot(profile),
    buyer,
    placeOfSupplyCode,
    intraState,
    sac: profile.sac,
    description: messages.invoices.description,
    quantity,
    unitRatePaise: paidInFull
      ? subscription.interviewCreditsPricePaise
      : Math.round(split.taxableValuePaise / quantity),
    taxRateBp,
    ...split,
  });
  const total = formatRupees(invoice.totalPaise);
  await notifyOrganizationAdmins(tx, payment.organizationId, {
    kind: 'invoice_issued',
    title: messages.invoices.receiptNotificationTitle,
    body: `Tax invoice ${invoice.number} for ${total} is ready to download.`,
    link: '/dashboard/invoices',
  });
  const outboxIds = await mailToAdmins(tx, payment.organizationId, {
    subject: `${messages.invoices.receiptSubject} ${invoice.number}`,
    text: [
      `Thank you for your payment of ${total}.`,
      `Your tax invoice ${invoice.number} is attached. You can also download it from Invoices in the portal.`,
    ].join('\n\n'),
    attachment: { kind: 'invoice', id: invoice.id },
  });
  return { invoice, outboxIds };
}

// ---------------------------------------------------------------------------------------------
// Reading

/** What an invoice and a credit note both answer. */
function documentDto(row: InvoiceRow | CreditNoteRow) {
  return {
    id: row.id,
    number: row.number,
    financialYear: row.financialYear,
    issuedAt: row.issuedAt.toISOString(),
    organizationId: row.organizationId,
    buyerName: row.buyer.name,
    buyerGstin: row.buyer.gstin,
    placeOfSupplyCode: row.placeOfSupplyCode,
    intraState: row.intraState,
    paymentId: row.paymentId,
    taxableValuePaise: row.taxableValuePaise,
    taxRateBp: row.taxRateBp,
    cgstPaise: row.cgstPaise,
    sgstPaise: row.sgstPaise,
    igstPaise: row.igstPaise,
    totalPaise: row.totalPaise,
  };
}

export function toInvoiceDto(row: InvoiceRow, refundedPaise: number): Invoice {
  return { ...documentDto(row), quantity: row.quantity, refundedPaise };
}

export function toCreditNoteDto(row: CreditNoteRow, invoiceNumber: string): CreditNote {
  return {
    ...documentDto(row),
    invoiceId: row.invoiceId,
    invoiceNumber,
    refundId: row.refundId,
    reason: row.reason,
    creditsTakenBack: row.creditsTakenBack,
  };
}

type ListQuery = z.output<typeof invoiceListQuerySchema>;

/** A tenant naming another organization finds nothing: the filter and its own scope both apply. */
export async function listInvoices(db: Db, auth: Actor, query: ListQuery) {
  const { rows, total } = await listInvoiceRows(db, query, tenantScope(auth), {
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  const refunded = await refundedSoFar(
    db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => toInvoiceDto(r, refunded.get(r.id)?.paise ?? 0)),
    meta: { page: query.page, pageSize: query.pageSize, total },
  };
}

export async function listCreditNotes(db: Db, auth: Actor, query: ListQuery) {
  const { rows, total } = await listCreditNoteRows(db, query, tenantScope(auth), {
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return {
    items: rows.map((r) => toCreditNoteDto(r, r.invoiceNumber)),
    meta: { page: query.page, pageSize: query.pageSize, total },
  };
}

// ---------------------------------------------------------------------------------------------
// PDFs

function party(snapshot: PartySnapshot) {
  return {
    name: snapshot.name,
    address: snapshot.address,
    gstin: snapshot.gstin,
    stateCode: snapshot.stateCode,
    stateName: stateByCode(snapshot.stateCode)?.name ?? snapshot.stateCode,
  };
}

function taxDocument(
  row: InvoiceRow | CreditNoteRow,
  extra: Pick<TaxDocument, 'kind' | 'originalInvoice' | 'reason'>,
): TaxDocument {
  const seller = row.seller;
  return {
    ...extra,
    number: row.number,
    issuedAt: row.issuedAt,
    seller: { ...party(seller), gstin: seller.gstin, pan: seller.pan, signatory: seller.signatory },
    buyer: party(row.buyer),
    placeOfSupply: {
      stateCode: row.placeOfSupplyCode,
      stateName: stateByCode(row.placeOfSupplyCode)?.name ?? row.placeOfSupplyCode,
    },
    sac: row.sac,
    description: row.description,
    quantity: row.quantity,
    unitRatePaise: row.unitRatePaise,
    taxableValuePaise: row.taxableValuePaise,
    taxRateBp: row.taxRateBp,
    cgstPaise: row.cgstPaise,
    sgstPaise: row.sgstPaise,
    igstPaise: row.igstPaise,
    totalPaise: row.totalPaise,
  };
}

/** `IC-26-27-000123.pdf`: the number with its slashes made safe for a file name. */
export function documentFileName(number: string): string {
  return `${number.replaceAll('/', '-')}.pdf`;
}

/** What rendering a document needs: its database and the PDF threads (pdf-renderer.ts). */
export interface PdfDeps {
  db: Db;
  pdf: PdfRenderer;
}

export async function invoicePdf(deps: PdfDeps, id: string, scope: string | null) {
  const invoice = await findInvoice(deps.db, id, scope);
  if (!invoice) throw notFound(messages.invoices.notFound);
  const pdf = await deps.pdf.render(
    taxDocument(invoice, { kind: 'invoice', originalInvoice: null, reason: null }),
  );
  return { fileName: documentFileName(invoice.number), pdf };
}

export async function creditNotePdf(deps: PdfDeps, id: string, scope: string | null) {
  const note = await findCreditNote(deps.db, id, scope);
  if (!note) throw notFound(messages.invoices.creditNoteNotFound);
  // Always there: a credit note references its invoice, and neither is ever deleted.
  const invoice = (await findInvoice(deps.db, note.invoiceId, null))!;
  const pdf = await deps.pdf.render(
    taxDocument(note, {
      kind: 'credit_note',
      originalInvoice: { number: invoice.number, issuedAt: invoice.issuedAt },
      reason: note.reason,
    }),
  );
  return { fileName: documentFileName(note.number), pdf };
}

/** Renders a mail's attached document when the mail is delivered. */
export function mailAttachmentRenderer(pdf: PdfRenderer): AttachmentRenderer {
  return async (db, ref) => {
    const deps = { db, pdf };
    const { fileName, pdf: content } =
      ref.kind === 'invoice' ? await invoicePdf(deps, ref.id, null) : await creditNotePdf(deps, ref.id, null);
    return { filename: fileName, contentType: 'application/pdf', content };
  };
}
