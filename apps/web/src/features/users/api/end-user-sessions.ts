import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess } from '@portal/shared';
import { api } from '../../../lib/api-client';

/** POST /auth/users/{id}/end-sessions: signs the user out everywhere (REQUIREMENTS.endUserSessions). */
export async function endUserSessions(id: string): Promise<number> {
  const answer = await api.post<ApiSuccess<{ ended: number }>>(
    `/auth/users/${encodeURIComponent(id)}/end-sessions`,
  );
  return answer.data.ended;
}

export function useEndUserSessions() {
  return useMutation({ mutationFn: endUserSessions });
}
