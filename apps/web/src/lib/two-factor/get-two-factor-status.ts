import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, TwoFactorStatus } from '@portal/shared';
import { api } from '../api-client';

export const twoFactorStatusQueryKey = ['two-factor'] as const;

/** GET /auth/two-factor: whether the signed-in user's two-factor sign-in is on, since when, codes left. */
export async function getTwoFactorStatus(): Promise<TwoFactorStatus> {
  return (await api.get<ApiSuccess<TwoFactorStatus>>('/auth/two-factor')).data;
}

export const twoFactorStatusQuery = () =>
  queryOptions({ queryKey: twoFactorStatusQueryKey, queryFn: getTwoFactorStatus });

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQuery());
}
