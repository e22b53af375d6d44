import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ApiSuccess } from '@portal/shared';
import { api } from '../../../lib/api-client';

interface Ok {
  success: true;
  message: string;
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => api.post<Ok>('/auth/forgot-password', { email }) });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => api.post<Ok>('/auth/reset-password', input),
  });
}

/**
 * POST /auth/reset-password/check: whether a link's token can still set a password, without using it.
 * The token goes in the body, never in a URL.
 */
export async function checkResetToken(token: string): Promise<boolean> {
  const body = await api.post<ApiSuccess<{ usable: boolean }>>('/auth/reset-password/check', { token });
  return body.data.usable;
}

export const resetTokenCheckQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'reset-token-check', token] as const,
    queryFn: () => checkResetToken(token),
    // Asked once per page visit: a refetch on focus would spend the address's budget for nothing.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

export function useResetTokenCheck(token: string) {
  return useQuery({ ...resetTokenCheckQuery(token), enabled: token !== '' });
}
