import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, CreatedApiKey } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { apiKeysQueryKey } from './get-api-keys';

export async function createApiKey(name: string): Promise<CreatedApiKey> {
  return (await api.post<ApiSuccess<CreatedApiKey>>('/auth/api-keys', { name })).data;
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
