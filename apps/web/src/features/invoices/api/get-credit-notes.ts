import type { CreditNote } from '@portal/shared';
import { pagedList } from '../../../lib/paged-list';
import { invoicingQueryKey, type InvoiceListParams } from './get-invoices';

export const creditNotes = pagedList<CreditNote, InvoiceListParams>({
  key: [...invoicingQueryKey, 'credit-notes'],
  path: '/auth/credit-notes',
});
export const useCreditNotes = creditNotes.useList;
