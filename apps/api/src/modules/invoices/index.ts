export { invoicesRoutes } from './invoices.routes.js';
export {
  issueInvoice,
  invoiceOfPayment,
  type InvoicedPayment,
  type InvoicedSubscription,
  type IssuedInvoice,
} from './invoices.service.js';
export {
  creditNoteRecorded,
  issueCreditNote,
  type CreditNoteRequest,
  type IssuedCreditNote,
} from './credit-notes.service.js';
export { requireSellerTaxProfile } from './tax-profile.service.js';
export { mailAttachmentRenderer } from './document-pdfs.js';
