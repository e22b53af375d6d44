import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiPage, PageMeta, User } from '@portal/shared';
import { api } from '../../../lib/api-client';

export interface UsersParams {
  page: number;
  pageSize: number;
  search?: string;
  /** A role name or id; the Admin Users screen asks `admin`. */
  role?: string;
  status?: 'active' | 'inactive';
  organizationId?: string;
  sort?: 'username' | 'email' | 'client' | 'createdAt' | 'status';
  order?: 'asc' | 'desc';
}

/** GET /api/auth/users: one page, searched, filtered and sorted by the server. */
export async function getUsers(params: UsersParams): Promise<{ users: User[]; meta: PageMeta }> {
  const body = await api.get<ApiPage<User>>('/auth/users', { params: { ...params } });
  const users = Array.isArray(body.data) ? body.data : [];
  return {
    users,
    meta: body.meta ?? { page: params.page, pageSize: params.pageSize, total: users.length },
  };
}

/** Every users query starts with this key; a change invalidates them all. */
export const usersQueryKey = ['users'] as const;

export const usersQuery = (params: UsersParams) =>
  queryOptions({
    queryKey: [...usersQueryKey, 'list', params],
    queryFn: () => getUsers(params),
    placeholderData: keepPreviousData,
  });

export function useUsers(params: UsersParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...usersQuery(params), enabled: options.enabled ?? true });
}
