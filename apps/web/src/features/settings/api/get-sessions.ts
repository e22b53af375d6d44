import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ActiveSession, ApiSuccess } from '@portal/shared';
import { api } from '../../../lib/api-client';

export const sessionsQueryKey = ['sessions'] as const;

/** GET /auth/sessions: the signed-in user's browsers, from sign-in to latest use; `current` is this one. */
export async function getSessions(): Promise<ActiveSession[]> {
  return (await api.get<ApiSuccess<ActiveSession[]>>('/auth/sessions')).data;
}

export const sessionsQuery = () =>
  // Who else is signed in is read afresh each time the section opens.
  queryOptions({ queryKey: sessionsQueryKey, queryFn: getSessions, staleTime: 0 });

export function useSessions() {
  return useQuery(sessionsQuery());
}
