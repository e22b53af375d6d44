import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActiveSession } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { sessionsQueryKey } from './get-sessions';

/** DELETE /auth/sessions/{id}: signs that browser out (this one too, when it is the current session). */
export async function endSession(session: Pick<ActiveSession, 'id' | 'current'>): Promise<void> {
  await api.delete(`/auth/sessions/${encodeURIComponent(session.id)}`);
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    // This browser's own session ended signs it out: there is no list left to read.
    onSuccess: (_, session) =>
      session.current ? undefined : queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
