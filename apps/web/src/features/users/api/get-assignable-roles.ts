import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiPage, PermissionEntry, User } from '@portal/shared';
import { api } from '../../../lib/api-client';

export interface AssignableRole {
  id: string;
  name: string;
  isSystem: boolean;
  organizationId: string | null;
  /** What the role grants: a role wider than the user's own is not offered (the server refuses it). */
  permissions: PermissionEntry[];
}

function roleOf(value: unknown): AssignableRole | null {
  if (!value || typeof value !== 'object') return null;
  const r = value as Record<string, unknown>;
  if (typeof r.id !== 'string' || typeof r.name !== 'string') return null;
  return {
    id: r.id,
    name: r.name,
    isSystem: r.isSystem === true,
    organizationId: typeof r.organizationId === 'string' ? r.organizationId : null,
    permissions: Array.isArray(r.permissions) ? (r.permissions as PermissionEntry[]) : [],
  };
}

/**
 * Roles a person can be given (GET /api/auth/roles, of one organization for super_admin). If that
 * call fails, the roles are derived from the users list instead.
 */
export async function getAssignableRoles(organizationId?: string): Promise<AssignableRole[]> {
  try {
    const body = await api.get<ApiPage<unknown>>('/auth/roles', {
      params: { page: 1, pageSize: 100, organizationId },
    });
    const list = Array.isArray(body.data) ? body.data : [];
    return list.map(roleOf).filter((r): r is AssignableRole => r !== null);
  } catch (error) {
    const users = await api
      .get<ApiPage<User>>('/auth/users', { params: { page: 1, pageSize: 100, organizationId } })
      .catch(() => {
        throw error;
      });
    const byId = new Map<string, AssignableRole>();
    for (const u of users.data ?? []) {
      byId.set(u.role.id, {
        id: u.role.id,
        name: u.role.name,
        isSystem: u.role.isSystem,
        organizationId: null,
        permissions: u.role.permissions,
      });
    }
    return [...byId.values()];
  }
}

export const assignableRolesQuery = (organizationId?: string) =>
  queryOptions({
    queryKey: ['roles', 'assignable', organizationId ?? ''],
    queryFn: () => getAssignableRoles(organizationId),
  });

export function useAssignableRoles(organizationId?: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...assignableRolesQuery(organizationId), enabled: options.enabled ?? true });
}
