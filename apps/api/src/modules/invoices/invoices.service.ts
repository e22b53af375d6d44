import type { Readable } from 'node:stream';
import type { z } from 'zod';
import {
  DEFAULT_GST_RATE_BP,
  formatRupees,
  messages,
  splitTax,
  type InvoiceFilter,
  type invoiceListQuerySchema,
} from '@portal/shared';
import { tenantScope, type Actor, type SystemActor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { pageEnvelope } from '../../lib/paging.js';
import { notifyOrganizationAdmins } from '../notifications/index.js';
import { renderInvoicePdf, type DocumentPdf } from './document-pdfs.js';
import { toInvoiceDto } from './dto.js';
import { invoiceRegister } from './invoice-register.js';
import {
  findInvoiceByPayment,
  insertInvoice,
  listInvoiceRows,
  refundedSoFar,
  type InvoiceRow,
} from './invoices.repo.js';
import {
  buyerOf,
  mailToAdmins,
  nextDocumentNumber,
  sellerProfileOrRefuse,
  sellerSnapshot,
} from './issuing.js';

/**
 * Tax invoices (docs/product.md, "Tax invoices"): one per captured payment, issued in the payment's
 * own transaction, numbered per financial year without gaps, never changed afterwards.
 */

/** What an invoice needs to know of the payment it is issued for. */
export interface InvoicedPayment {
  id: string;
  organizationId: string;
  /** What was paid, tax included. */
  amountPaise: number;
}

/** The agreed terms of the subscription a payment pays, when it pays one. */
export interface InvoicedSubscription {
  totalInterviewCredits: number;
  interviewCreditsPricePaise: number;
  taxRateBp: number;
  /** The taxable value. */
  totalAmountPaise: number;
  grandTotalAmountPaise: number;
}

export interface IssuedInvoice {
  invoice: InvoiceRow;
}

/**
 * Issues the invoice of a captured payment, with the receipt mail and notification; called with
 * `withDb(deps, tx)` it is part of the payment's transaction. A subscription the payment pays in full
 * gives the agreed taxable value, credits and price; any other amount is split at the rate (18 % when
 * nothing says otherwise).
 */
export async function issueInvoice(
  deps: Deps,
  actor: Actor | SystemActor,
  input: { payment: InvoicedPayment; subscription: InvoicedSubscription | null; issuedAt?: Date },
): Promise<IssuedInvoice> {
  const { payment, subscription } = input;
  const issuedAt = input.issuedAt ?? deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const profile = await sellerProfileOrRefuse(tx);
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
    const txDeps = withDb(deps, tx);
    await notifyOrganizationAdmins(txDeps, actor, {
      organizationId: payment.organizationId,
      kind: 'invoice_issued',
      title: messages.invoices.receiptNotificationTitle,
      body: `Tax invoice ${invoice.number} for ${total} is ready to download.`,
      link: '/dashboard/invoices',
    });
    await mailToAdmins(txDeps, actor, payment.organizationId, {
      kind: 'tax_invoice',
      subject: `${messages.invoices.receiptSubject} ${invoice.number}`,
      text: [
        `Thank you for your payment of ${total}.`,
        `Your tax invoice ${invoice.number} is attached. You can also download it from Invoices in the portal.`,
      ].join('\n\n'),
      attachment: { kind: 'invoice', id: invoice.id },
    });
    return { invoice };
  });
}

/** The invoice of a payment, or null: a payment without one cannot be refunded. */
export async function invoiceOfPayment(
  deps: Deps,
  _actor: Actor | SystemActor,
  input: { paymentId: string },
): Promise<{ id: string; number: string } | null> {
  const invoice = await findInvoiceByPayment(deps.db, input.paymentId);
  return invoice && { id: invoice.id, number: invoice.number };
}

type ListQuery = z.output<typeof invoiceListQuerySchema>;

/** A tenant naming another organization finds nothing: the filter and its own scope both apply. */
export async function listInvoices(deps: Deps, actor: Actor, query: ListQuery) {
  const { rows, total } = await listInvoiceRows(deps.db, query, tenantScope(actor));
  const refunded = await refundedSoFar(
    deps.db,
    rows.map((r) => r.id),
  );
  return pageEnvelope(
    query,
    rows.map((r) => toInvoiceDto(r, refunded.get(r.id)?.paise ?? 0)),
    total,
  );
}

/** The invoice register as filtered, an .xlsx streamed as it is read (invoice-register.ts). */
export function exportInvoiceRegister(deps: Deps, actor: Actor, filter: InvoiceFilter): Readable {
  return invoiceRegister(deps.db, filter, tenantScope(actor));
}

export function invoicePdf(deps: Deps, actor: Actor, input: { id: string }): Promise<DocumentPdf> {
  return renderInvoicePdf(deps.db, deps.workers, input.id, tenantScope(actor));
}
