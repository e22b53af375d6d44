import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, type ApiSuccess, type ManualPaymentInput, type Renewal } from '@portal/shared';
import { api, ApiError } from '../../../lib/api-client';
import { billingQueryKey } from './get-credits';

/**
 * POST /auth/renewals/:id/payments: the operator records a payment received for a renewal; the API
 * issues the period's invoice and grants its credits.
 */
export async function recordRenewalPayment(input: {
  id: string;
  body: ManualPaymentInput;
}): Promise<Renewal> {
  return (
    await api.post<ApiSuccess<Renewal>>(`/auth/renewals/${encodeURIComponent(input.id)}/payments`, input.body)
  ).data;
}

/**
 * The renewal is gone (404) or no longer waiting for a payment: the list it came from is out of date.
 * Not any 409: a transaction id already recorded is one too, and is corrected in the dialog.
 */
export function isStaleRenewal(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 404 || (error.status === 409 && error.message === messages.renewals.notPayable))
  );
}

export function useRecordRenewalPayment() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: billingQueryKey });
  return useMutation({
    mutationFn: recordRenewalPayment,
    // The renewal is paid; beyond it the invoices, the credit balances and the revenue figures change.
    onSuccess: () => queryClient.invalidateQueries(),
    onError: (error) => (isStaleRenewal(error) ? refresh() : undefined),
  });
}
