import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResendMailInput } from '@portal/shared';
import { api, ApiError } from '../../../lib/api-client';
import { mailQueryKey } from './get-undelivered-mail';

/**
 * POST /api/auth/mail/:id/resend: queues an undelivered mail again, to `to` when given (a corrected
 * address), else to its own. Answers the server's message.
 */
export async function resendMail(input: { id: string; body: ResendMailInput }): Promise<string> {
  const answer = await api.post<{ message: string }>(
    `/auth/mail/${encodeURIComponent(input.id)}/resend`,
    input.body,
  );
  return answer.message;
}

/** The mail is gone (404) or no longer undelivered (409): the list it was chosen from is out of date. */
export function isStaleMail(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 409);
}

export function useResendMail() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: mailQueryKey });
  return useMutation({
    mutationFn: resendMail,
    // Sent again, the mail leaves the list.
    onSuccess: refresh,
    onError: (error) => (isStaleMail(error) ? refresh() : undefined),
  });
}
