import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiPage, PageMeta, Role } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { roleFromBody } from '../utils/role-shape';

export interface RolesParams {
  page: number;
  pageSize: number;
  search?: string;
}

export async function getRoles(params: RolesParams): Promise<{ roles: Role[]; meta: PageMeta }> {
  const body = await api.get<ApiPage<unknown>>('/auth/roles', {
    params: { page: params.page, pageSize: params.pageSize, search: params.search },
  });
  const list = Array.isArray(body.data) ? body.data : [];
  return {
    roles: list.map(roleFromBody),
    meta: body.meta ?? { page: params.page, pageSize: params.pageSize, total: list.length },
  };
}

export const rolesQueryKey = ['roles'] as const;

export const rolesQuery = (params: RolesParams) =>
  queryOptions({
    queryKey: [...rolesQueryKey, 'list', params],
    queryFn: () => getRoles(params),
    placeholderData: keepPreviousData,
  });

export function useRoles(params: RolesParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...rolesQuery(params), enabled: options.enabled ?? true });
}
