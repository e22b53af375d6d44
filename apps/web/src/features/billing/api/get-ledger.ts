import type { LedgerEntry } from '@portal/shared';
import { pagedList, type PageParams } from '../../../lib/paged-list';
import { billingQueryKey } from './get-credits';

export const ledger = pagedList<LedgerEntry, PageParams>({
  key: [...billingQueryKey, 'ledger'],
  path: '/auth/credits/ledger',
});
export const useLedger = ledger.useList;
