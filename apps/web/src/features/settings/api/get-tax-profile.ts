import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, SellerTaxProfile } from '@portal/shared';
import { api } from '../../../lib/api-client';

export const taxProfileQueryKey = ['tax-profile'] as const;

/** GET /auth/tax-profile: the seller's particulars every invoice carries; null until set up. */
export async function getTaxProfile(): Promise<SellerTaxProfile | null> {
  return (await api.get<ApiSuccess<SellerTaxProfile | null>>('/auth/tax-profile')).data ?? null;
}

export const taxProfileQuery = () => queryOptions({ queryKey: taxProfileQueryKey, queryFn: getTaxProfile });

export function useTaxProfile() {
  return useQuery(taxProfileQuery());
}
