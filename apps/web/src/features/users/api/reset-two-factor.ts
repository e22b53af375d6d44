import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

/**
 * POST /auth/users/{id}/two-factor/reset: removes the user's second factor, for one who lost both the
 * authenticator and the recovery codes (REQUIREMENTS.resetUserTwoFactor). Their sessions end.
 */
export async function resetUserTwoFactor(id: string): Promise<string> {
  const answer = await api.post<{ success: true; message: string }>(
    `/auth/users/${encodeURIComponent(id)}/two-factor/reset`,
  );
  return answer.message;
}

export function useResetUserTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetUserTwoFactor,
    // The list shows who has a factor.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
