import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, UpdateUserBody, User } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

/** PUT /api/auth/users/:id (the email is sent unchanged; the server refuses a different one). */
export async function updateUser(id: string, body: UpdateUserBody): Promise<User> {
  const answer = await api.put<ApiSuccess<User>>(`/auth/users/${encodeURIComponent(id)}`, body);
  return answer.data;
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateUserBody }) => updateUser(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
