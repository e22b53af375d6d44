import type { Invoice } from '@portal/shared';
import { pagedList, type PageParams } from '../../../lib/paged-list';

/** The Invoices screen's filters, as GET /auth/invoices, /auth/credit-notes and the export take them. */
export interface InvoiceFilters {
  search?: string | undefined;
  /** The financial year's first year: 2026 is FY 2026-27. */
  financialYear?: number | undefined;
  /** 1–12, within the financial year. */
  month?: number | undefined;
}
export type InvoiceListParams = PageParams & InvoiceFilters;

/** Starts every invoicing query: a refund changes invoices and credit notes alike. */
export const invoicingQueryKey = ['invoicing'] as const;

export const invoices = pagedList<Invoice, InvoiceListParams>({
  key: [...invoicingQueryKey, 'invoices'],
  path: '/auth/invoices',
});
export const useInvoices = invoices.useList;
