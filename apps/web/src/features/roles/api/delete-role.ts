import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { rolesQueryKey } from './get-roles';

export async function deleteRole(id: string): Promise<void> {
  await api.delete(`/auth/roles/${encodeURIComponent(id)}`);
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rolesQueryKey }),
  });
}
