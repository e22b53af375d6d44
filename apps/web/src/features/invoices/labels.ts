/**
 * Labels used only by the Invoices screen (texts docs/product.md names are in packages/shared
 * messages.ts).
 */
export const labels = {
  subtitle: 'Tax invoices of payments and the credit notes of refunds',
  number: 'Number',
  date: 'Date',
  organization: 'Organization',
  gstin: 'GSTIN',
  taxableValue: 'Taxable value',
  tax: 'Tax',
  total: 'Total',
  refunded: 'Refunded',
  againstInvoice: 'Against invoice',
  creditsTakenBack: 'Credits taken back',
  reason: 'Reason',
  actions: 'Actions',
  financialYear: 'Financial year',
  allYears: 'All years',
  month: 'Month',
  allMonths: 'All months',
  invoicesEmpty: 'No invoices yet.',
  creditNotesEmpty: 'No credit notes yet.',
  loadFailed: 'Could not load the list.',
  downloadFailed: 'Could not download the file.',
  refundTitle: 'Refund payment',
  refundOf: 'Invoice',
  refundable: 'Left to refund',
  amount: 'Amount to refund (₹)',
  amountHint: 'Up to the amount left to refund, in rupees and paise',
  refundReason: 'Reason',
  refundHint:
    'The payment is refunded through its provider, a credit note is issued and the credits this amount bought are taken back.',
  cancel: 'Cancel',
  refundFailed: 'The refund could not be processed.',
} as const;

/** The months of a financial year, April first. */
export const FINANCIAL_YEAR_MONTHS = [
  { month: 4, name: 'April' },
  { month: 5, name: 'May' },
  { month: 6, name: 'June' },
  { month: 7, name: 'July' },
  { month: 8, name: 'August' },
  { month: 9, name: 'September' },
  { month: 10, name: 'October' },
  { month: 11, name: 'November' },
  { month: 12, name: 'December' },
  { month: 1, name: 'January' },
  { month: 2, name: 'February' },
  { month: 3, name: 'March' },
] as const;
