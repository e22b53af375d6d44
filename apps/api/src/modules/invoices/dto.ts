import type { CreditNote, Invoice } from '@portal/shared';
import type { CreditNoteRow, InvoiceRow } from './invoices.repo.js';

/** Row → API shape. Dates as ISO strings; money stays integer paise. */

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
