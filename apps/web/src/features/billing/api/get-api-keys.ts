import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKey, ApiPage } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { billingQueryKey } from './get-credits';

export const apiKeysQueryKey = [...billingQueryKey, 'api-keys'] as const;

export async function getApiKeys(): Promise<ApiKey[]> {
  return (await api.get<ApiPage<ApiKey>>('/auth/api-keys', { params: { pageSize: 100 } })).data;
}

export const apiKeysQuery = () => queryOptions({ queryKey: apiKeysQueryKey, queryFn: getApiKeys });

export function useApiKeys() {
  return useQuery(apiKeysQuery());
}
