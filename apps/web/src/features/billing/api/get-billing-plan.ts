import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, BillingPlanView } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingQueryKey } from './get-credits';

/**
 * Under the billing key: a verified payment (a renewal paid online) refreshes it with the balance.
 * Every query of a plan starts with it (another organization's, the subscription timeline), so
 * invalidating it refreshes them all.
 */
export const billingPlanQueryKey = [...billingQueryKey, 'plan'] as const;

/**
 * GET /auth/billing-plan: the organization's plan (null before onboarding) and its latest renewals;
 * with `organizationId`, that organization's (the platform operator's).
 */
export async function getBillingPlan(organizationId?: string): Promise<BillingPlanView> {
  return (
    await api.get<ApiSuccess<BillingPlanView>>('/auth/billing-plan', {
      ...(organizationId ? { params: { organizationId } } : {}),
    })
  ).data;
}

export const billingPlanQuery = () =>
  queryOptions({ queryKey: billingPlanQueryKey, queryFn: () => getBillingPlan() });

export function useBillingPlan() {
  return useQuery(billingPlanQuery());
}

/** Another organization's plan, as the operator edits it: read afresh each time. */
export const organizationPlanQuery = (organizationId: string) =>
  queryOptions({
    queryKey: [...billingPlanQueryKey, 'organization', organizationId],
    queryFn: () => getBillingPlan(organizationId),
    staleTime: 0,
  });

export function useOrganizationPlan(organizationId: string) {
  return useQuery(organizationPlanQuery(organizationId));
}
