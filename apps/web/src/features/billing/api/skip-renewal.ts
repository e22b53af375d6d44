import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, Renewal } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingPlanQueryKey } from './get-billing-plan';

/** POST /auth/renewals/:id/skip: the customer opts out of one announced debit before it is taken. */
export async function skipRenewal(id: string): Promise<Renewal> {
  return (await api.post<ApiSuccess<Renewal>>(`/auth/renewals/${encodeURIComponent(id)}/skip`)).data;
}

export function useSkipRenewal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: skipRenewal,
    // Skipped, or refused because it moved on meanwhile (charged, lapsed): either way read it again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingPlanQueryKey }),
  });
}
