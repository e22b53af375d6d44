import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, CreateUserBody, User } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

/** POST /api/auth/auth-session/register: a member of an existing organization, invited by email. */
export async function registerUser(body: CreateUserBody): Promise<User> {
  const answer = await api.post<ApiSuccess<User>>('/auth/auth-session/register', body);
  return answer.data;
}

export function useRegisterUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
