import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, CreditSummary } from '@portal/shared';
import { api } from '../../../lib/api-client';

export const billingQueryKey = ['billing'] as const;

export async function getCredits(): Promise<CreditSummary> {
  return (await api.get<ApiSuccess<CreditSummary>>('/auth/credits')).data;
}

export const creditsQuery = () =>
  queryOptions({ queryKey: [...billingQueryKey, 'credits'], queryFn: getCredits });

export function useCredits() {
  return useQuery(creditsQuery());
}
