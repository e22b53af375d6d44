import { useMutation, useQueryClient } from '@tanstack/react-query';
import { storageKeys, type ApiSuccess, type PaymentVerified, type VerifyPaymentBody } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingQueryKey } from './get-credits';

export async function verifyPayment(body: VerifyPaymentBody): Promise<PaymentVerified> {
  return (await api.post<ApiSuccess<PaymentVerified>>('/admin/payment/verify', body)).data;
}

export function useVerifyPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyPayment,
    onSuccess: (result) => {
      // The provider's payment id is kept in local storage.
      localStorage.setItem(storageKeys.paymentId, result.payment.providerPaymentId ?? '');
      return queryClient.invalidateQueries({ queryKey: billingQueryKey });
    },
  });
}
