import type { Role } from '@portal/shared';
import { pagedList } from '../../../lib/paged-list';
import { roleFromBody } from '../utils/role-shape';

export interface RolesParams {
  page: number;
  pageSize: number;
  search?: string;
}

export const rolesQueryKey = ['roles'] as const;

export const roles = pagedList<Role, RolesParams>({
  key: rolesQueryKey,
  path: '/auth/roles',
  item: roleFromBody,
});
export const useRoles = roles.useList;
