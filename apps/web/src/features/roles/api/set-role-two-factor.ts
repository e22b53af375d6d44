import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, Role } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { rolesQueryKey } from './get-roles';

/** PUT /auth/roles/{id}/two-factor: the platform operator's policy for a role's users. */
export async function setRoleTwoFactor(id: string, required: boolean) {
  return api.put<ApiSuccess<Role> & { message: string }>(`/auth/roles/${encodeURIComponent(id)}/two-factor`, {
    required,
  });
}

export function useSetRoleTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, required }: { id: string; required: boolean }) => setRoleTwoFactor(id, required),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rolesQueryKey }),
  });
}
