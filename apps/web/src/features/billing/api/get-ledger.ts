import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiPage, LedgerEntry, PageMeta } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingQueryKey } from './get-credits';

export async function getLedger(
  page: number,
  pageSize: number,
): Promise<{ entries: LedgerEntry[]; meta: PageMeta }> {
  const body = await api.get<ApiPage<LedgerEntry>>('/auth/credits/ledger', { params: { page, pageSize } });
  return { entries: body.data, meta: body.meta };
}

export const ledgerQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...billingQueryKey, 'ledger', page, pageSize],
    queryFn: () => getLedger(page, pageSize),
    placeholderData: keepPreviousData,
  });

export function useLedger(page: number, pageSize: number) {
  return useQuery(ledgerQuery(page, pageSize));
}
