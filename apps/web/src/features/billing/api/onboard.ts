import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  IDEMPOTENCY_HEADER,
  type ApiSuccess,
  type OnboardingBody,
  type OnboardingResult,
} from '@portal/shared';
import { api } from '../../../lib/api-client';

/**
 * POST /auth/onboarding: organization, admin user, subscription and (with `payment`) the manual
 * payment in one transaction on the server. Both buttons of the subscription screen use it.
 */
export async function onboard(input: {
  body: OnboardingBody;
  idempotencyKey: string;
}): Promise<OnboardingResult> {
  const res = await api.post<ApiSuccess<OnboardingResult>>('/auth/onboarding', input.body, {
    headers: { [IDEMPOTENCY_HEADER]: input.idempotencyKey },
  });
  return res.data;
}

export function useOnboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: onboard,
    // The users list and every billing view change.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
