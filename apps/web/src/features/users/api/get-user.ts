import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages, type ApiSuccess, type User } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-users';

/** GET /api/auth/users/:id. An answer without a user is 'Invalid data format received for user.' */
export async function getUserById(id: string): Promise<User> {
  const body = await api.get<ApiSuccess<User>>(`/auth/users/${encodeURIComponent(id)}`);
  const user = body && typeof body === 'object' && 'data' in body ? body.data : null;
  if (!user || typeof user !== 'object' || !('id' in user)) {
    throw new Error(messages.fallback.invalidUserFormat);
  }
  return user;
}

export const userQuery = (id: string) =>
  queryOptions({ queryKey: [...usersQueryKey, 'detail', id], queryFn: () => getUserById(id) });

export function useUser(id: string | null) {
  return useQuery({ ...userQuery(id ?? ''), enabled: !!id });
}
