import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess } from '@portal/shared';
import { api } from '../api-client';
import { twoFactorStatusQueryKey } from './get-two-factor-status';

/** POST /auth/two-factor/enable: the waiting secret's first code turns it on; answers the recovery codes. */
export async function enableTwoFactor(body: { code: string }): Promise<string[]> {
  const answer = await api.post<ApiSuccess<{ recoveryCodes: string[] }>>('/auth/two-factor/enable', body);
  return answer.data.recoveryCodes;
}

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey }),
  });
}
