import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BillingPlan, SandboxMandateBody } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingPlanQueryKey } from './get-billing-plan';

/**
 * POST /admin/payment/sandbox/mandate: the sandbox's checkout registers the organization's card
 * mandate (402 for the declined test card; 404 unless payments go through the sandbox).
 */
export async function authorizeMandate(body: SandboxMandateBody): Promise<BillingPlan> {
  return (await api.post<ApiSuccess<BillingPlan>>('/admin/payment/sandbox/mandate', body)).data;
}

export function useAuthorizeMandate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: authorizeMandate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingPlanQueryKey }),
  });
}
