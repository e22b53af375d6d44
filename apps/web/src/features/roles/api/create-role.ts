import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, Role } from '@portal/shared';
import { api } from '../../../lib/api-client';
import type { RolePayload } from '../utils/role-form';
import { rolesQueryKey } from './get-roles';

export async function createRole(payload: RolePayload): Promise<Role> {
  return (await api.post<ApiSuccess<Role>>('/auth/roles', payload)).data;
}

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rolesQueryKey }),
  });
}
