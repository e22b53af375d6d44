import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, TwoFactorSetup } from '@portal/shared';
import { api } from '../api-client';

/** POST /auth/two-factor/setup: a new secret, waiting for its first code (it replaces one still waiting). */
export async function startTwoFactorSetup(): Promise<TwoFactorSetup> {
  return (await api.post<ApiSuccess<TwoFactorSetup>>('/auth/two-factor/setup')).data;
}

export function useStartTwoFactorSetup() {
  return useMutation({ mutationFn: startTwoFactorSetup });
}
