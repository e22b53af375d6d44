import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, MailAttempt } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { mailQueryKey } from './get-undelivered-mail';

/** GET /api/auth/mail/:id/attempts: each try at handing the mail to the SMTP server, oldest first. */
export async function getMailAttempts(id: string): Promise<MailAttempt[]> {
  return (await api.get<ApiSuccess<MailAttempt[]>>(`/auth/mail/${encodeURIComponent(id)}/attempts`)).data;
}

export const mailAttemptsQuery = (id: string) =>
  // What the delivery job last tried is read afresh each time the dialog opens.
  queryOptions({
    queryKey: [...mailQueryKey, 'attempts', id],
    queryFn: () => getMailAttempts(id),
    staleTime: 0,
  });

export function useMailAttempts(id: string) {
  return useQuery(mailAttemptsQuery(id));
}
