import { queryOptions } from '@tanstack/react-query';
import type { ApiSuccess, User } from '@portal/shared';
import { api } from '../../../lib/api-client';

export function getUser(id: string): Promise<User> {
  return api.get<ApiSuccess<User>>(`/auth/users/${encodeURIComponent(id)}`).then((r) => r.data);
}

export const userQueryKey = (id: string | null) => ['auth', 'user', id] as const;

export function currentUserQuery(id: string | null) {
  return queryOptions({
    queryKey: userQueryKey(id),
    queryFn: () => getUser(id!),
    enabled: id !== null,
    retry: false,
  });
}
