import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, OrderCreated } from '@portal/shared';
import { api } from '../../../lib/api-client';

/** POST /admin/payment/order: only the number of credits; the server prices them. */
export async function createOrder(credits: number): Promise<OrderCreated> {
  return (await api.post<ApiSuccess<OrderCreated>>('/admin/payment/order', { credits })).data;
}

export function useCreateOrder() {
  return useMutation({ mutationFn: createOrder });
}
