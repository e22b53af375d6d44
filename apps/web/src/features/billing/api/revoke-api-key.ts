import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, ApiSuccess } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { apiKeysQueryKey } from './get-api-keys';

export async function revokeApiKey(id: string): Promise<ApiKey> {
  return (await api.delete<ApiSuccess<ApiKey>>(`/auth/api-keys/${id}`)).data;
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
