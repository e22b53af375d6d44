import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, OrderCreated, UpgradePlanBody } from '@portal/shared';
import { api } from '../../../lib/api-client';

/**
 * POST /auth/billing-plan/upgrade: more credits a month from now. The answer is an order for the
 * running period's share of the extra credits (its `credits` and `amountPaise`), paid through the
 * same checkout as buying credits (useCheckout); verified, the plan has the new credits. 400 when
 * the credits are not more than today's, 409 when no paid period is running.
 */
export async function upgradePlan(body: UpgradePlanBody): Promise<OrderCreated> {
  return (await api.post<ApiSuccess<OrderCreated>>('/auth/billing-plan/upgrade', body)).data;
}

export function useUpgradePlan() {
  return useMutation({ mutationFn: upgradePlan });
}
