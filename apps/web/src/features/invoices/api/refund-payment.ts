import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_HEADER, type ApiSuccess, type RefundBody, type RefundResult } from '@portal/shared';
import { api } from '../../../lib/api-client';

/**
 * POST /auth/payments/{paymentId}/refunds: refunds part or all of a payment, issues a credit note and
 * takes back the credits it paid for. The key makes a retried request refund once.
 */
export async function refundPayment(input: {
  paymentId: string;
  body: RefundBody;
  idempotencyKey: string;
}): Promise<RefundResult> {
  const res = await api.post<ApiSuccess<RefundResult>>(
    `/auth/payments/${encodeURIComponent(input.paymentId)}/refunds`,
    input.body,
    { headers: { [IDEMPOTENCY_HEADER]: input.idempotencyKey } },
  );
  return res.data;
}

export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundPayment,
    // Invoices and credit notes, and beyond them the credit balances and the revenue figures, change.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
