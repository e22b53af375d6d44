import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, ConfirmTwoFactorBody } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { twoFactorStatusQueryKey } from '../../../lib/two-factor/get-two-factor-status';

/** POST /auth/two-factor/recovery-codes: a new set of recovery codes; the old ones stop working. */
export async function makeRecoveryCodes(body: ConfirmTwoFactorBody): Promise<string[]> {
  const answer = await api.post<ApiSuccess<{ recoveryCodes: string[] }>>(
    '/auth/two-factor/recovery-codes',
    body,
  );
  return answer.data.recoveryCodes;
}

export function useMakeRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey }),
  });
}
