import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BillingPlan } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingPlanQueryKey } from './get-billing-plan';

/**
 * POST /auth/billing-plan/mandate/cancel: the organization's card mandate is cancelled; an announced
 * or declined debit then waits to be paid (409 when no mandate is authorized).
 */
export async function cancelMandate(): Promise<BillingPlan> {
  return (await api.post<ApiSuccess<BillingPlan>>('/auth/billing-plan/mandate/cancel')).data;
}

export function useCancelMandate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelMandate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingPlanQueryKey }),
  });
}
