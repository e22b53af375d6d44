import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, OrderCreated } from '@portal/shared';
import { api } from '../../../lib/api-client';

/**
 * POST /auth/renewals/:id/order: an online payment order for a renewal waiting for the customer,
 * paid through the same checkout as buying credits (useCheckout).
 */
export async function createRenewalOrder(id: string): Promise<OrderCreated> {
  return (await api.post<ApiSuccess<OrderCreated>>(`/auth/renewals/${encodeURIComponent(id)}/order`)).data;
}

export function useCreateRenewalOrder() {
  return useMutation({ mutationFn: createRenewalOrder });
}
