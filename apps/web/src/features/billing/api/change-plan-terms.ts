import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BillingPlan, PlanTermsBody } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingQueryKey } from './get-credits';

/**
 * PUT /auth/billing-plan/terms: the plan's terms from its next renewal not yet announced. The admin
 * changes the credits a month; the price, GST and rollover cap are the platform operator's, who
 * names the organization (`organizationId`).
 */
export async function changePlanTerms(input: {
  organizationId?: string | undefined;
  body: PlanTermsBody;
}): Promise<BillingPlan> {
  return (
    await api.put<ApiSuccess<BillingPlan>>('/auth/billing-plan/terms', input.body, {
      ...(input.organizationId ? { params: { organizationId: input.organizationId } } : {}),
    })
  ).data;
}

export function useChangePlanTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePlanTerms,
    // The plan, its scheduled renewals (the operator's list too) and its timeline change.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingQueryKey }),
  });
}
