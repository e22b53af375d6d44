import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, BillingPlanView } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingQueryKey } from './get-credits';

/** Under the billing key: a verified payment (a renewal paid online) refreshes it with the balance. */
export const billingPlanQueryKey = [...billingQueryKey, 'plan'] as const;

/** GET /auth/billing-plan: the organization's plan (null before onboarding) and its latest renewals. */
export async function getBillingPlan(): Promise<BillingPlanView> {
  return (await api.get<ApiSuccess<BillingPlanView>>('/auth/billing-plan')).data;
}

export const billingPlanQuery = () =>
  queryOptions({ queryKey: billingPlanQueryKey, queryFn: getBillingPlan });

export function useBillingPlan() {
  return useQuery(billingPlanQuery());
}
