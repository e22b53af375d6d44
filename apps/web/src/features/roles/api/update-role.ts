import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, Role } from '@portal/shared';
import { api } from '../../../lib/api-client';
import type { RolePayload } from '../utils/role-form';
import { rolesQueryKey } from './get-roles';

export async function updateRole(id: string, payload: RolePayload): Promise<Role> {
  return (await api.put<ApiSuccess<Role>>(`/auth/roles/${encodeURIComponent(id)}`, payload)).data;
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, payload }: { id: string; payload: RolePayload }) => updateRole(id, payload),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rolesQueryKey }),
  });
}
