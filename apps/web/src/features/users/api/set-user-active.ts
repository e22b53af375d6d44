import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, User } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

/** PUT /api/auth/users/:id/activate or /deactivate (no body). Deactivation ends the user's sessions. */
export async function setUserActive(id: string, active: boolean): Promise<User> {
  const answer = await api.put<ApiSuccess<User>>(
    `/auth/users/${encodeURIComponent(id)}/${active ? 'activate' : 'deactivate'}`,
  );
  return answer.data;
}

export function useSetUserActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) => setUserActive(id, active),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
