import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { sessionsQueryKey } from './get-sessions';

/** POST /auth/sessions/end-others: signs out every browser but this one; answers how many. */
export async function endOtherSessions(): Promise<number> {
  return (await api.post<ApiSuccess<{ ended: number }>>('/auth/sessions/end-others')).data.ended;
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
