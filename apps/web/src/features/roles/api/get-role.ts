import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Role } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { roleFromBody } from '../utils/role-shape';
import { rolesQueryKey } from './get-roles';

/** A role by id; legacy bitmask permissions come back in the list shape. */
export async function getRole(id: string): Promise<Role> {
  return roleFromBody(await api.get<unknown>(`/auth/roles/${encodeURIComponent(id)}`));
}

export const roleQuery = (id: string | undefined) =>
  queryOptions({
    queryKey: [...rolesQueryKey, 'one', id],
    queryFn: () => getRole(id!),
    enabled: !!id,
    // An edit screen shows what is stored now, not a copy from five minutes ago.
    staleTime: 0,
  });

export function useRole(id: string | undefined) {
  return useQuery(roleQuery(id));
}
