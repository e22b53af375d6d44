import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BillingPlan, UpdateBillingPlanBody } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingPlanQueryKey } from './get-billing-plan';

/** PUT /auth/billing-plan: automatic renewal on or off. */
export async function updateBillingPlan(body: UpdateBillingPlanBody): Promise<BillingPlan> {
  return (await api.put<ApiSuccess<BillingPlan>>('/auth/billing-plan', body)).data;
}

export function useUpdateBillingPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBillingPlan,
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingPlanQueryKey }),
  });
}
