import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, ConfirmTwoFactorBody, TwoFactorSetup } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { twoFactorStatusQueryKey } from '../../../lib/two-factor/get-two-factor-status';

/**
 * POST /auth/two-factor/replace: a lost or replaced authenticator. The password and a current code or
 * a recovery code; the old factor is gone and a new secret waits for its first code (enable).
 */
export async function replaceAuthenticator(body: ConfirmTwoFactorBody): Promise<TwoFactorSetup> {
  return (await api.post<ApiSuccess<TwoFactorSetup>>('/auth/two-factor/replace', body)).data;
}

export function useReplaceAuthenticator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceAuthenticator,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey }),
  });
}
