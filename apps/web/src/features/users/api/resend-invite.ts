import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

/** POST /api/auth/users/:id/resend-invite: a new set-password link; the old one stops working. */
export async function resendInvite(id: string): Promise<{ user: User; message: string }> {
  const answer = await api.post<{ data: User; message: string }>(
    `/auth/users/${encodeURIComponent(id)}/resend-invite`,
  );
  return { user: answer.data, message: answer.message };
}

export function useResendInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
