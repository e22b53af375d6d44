import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConfirmTwoFactorBody } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { twoFactorStatusQueryKey } from '../../../lib/two-factor/get-two-factor-status';

/** POST /auth/two-factor/disable: turns two-factor sign-in off, with the password and a current code. */
export async function disableTwoFactor(body: ConfirmTwoFactorBody): Promise<void> {
  await api.post('/auth/two-factor/disable', body);
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey }),
  });
}
