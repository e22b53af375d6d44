import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BillingPlan, MandateOrder, VerifyPaymentBody } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { openRazorpayMandateCheckout } from '../components/razorpay-checkout';
import { billingPlanQueryKey } from './get-billing-plan';

/** POST /auth/billing-plan/mandate/order: the ₹1 authorization order for Razorpay Checkout. */
export async function createMandateOrder(): Promise<MandateOrder> {
  return (await api.post<ApiSuccess<MandateOrder>>('/auth/billing-plan/mandate/order')).data;
}

/** POST /auth/billing-plan/mandate/verify: Checkout's answer; its token becomes the mandate. */
export async function verifyMandate(body: VerifyPaymentBody): Promise<BillingPlan> {
  return (await api.post<ApiSuccess<BillingPlan>>('/auth/billing-plan/mandate/verify', body)).data;
}

/**
 * The card mandate through Razorpay Checkout: the order, the customer's authentication in Checkout,
 * then verify. Resolves null when the customer closed Checkout.
 */
export function useAuthorizeRazorpayMandate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<BillingPlan | null> => {
      const order = await createMandateOrder();
      const answer = await openRazorpayMandateCheckout(order);
      return answer ? verifyMandate(answer) : null;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingPlanQueryKey }),
  });
}
