import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, VerifyPaymentBody } from '@portal/shared';
import { api } from '../../../lib/api-client';

/** The sandbox's test checkout: answers what Razorpay Checkout would hand the page. */
export async function sandboxPay(input: { orderId: string; cardNumber: string }): Promise<VerifyPaymentBody> {
  return (
    await api.post<ApiSuccess<VerifyPaymentBody>>('/admin/payment/sandbox/pay', {
      razorpay_order_id: input.orderId,
      cardNumber: input.cardNumber,
    })
  ).data;
}

export function useSandboxPay() {
  return useMutation({ mutationFn: sandboxPay });
}
