import { queryOptions } from '@tanstack/react-query';
import type { ApiSuccess, SessionUser } from '@portal/shared';
import { api } from '../../api-client';

/**
 * GET /auth/auth-session/me: the signed-in user, their role and their two-factor state. Read from
 * `me` rather than /auth/users/{id}: while the role requires two-factor sign-in the user has not set
 * up, `me` is one of the few calls the server still answers.
 */
export function getSignedInUser(): Promise<SessionUser> {
  return api.get<ApiSuccess<SessionUser>>('/auth/auth-session/me').then((r) => r.data);
}

export const userQueryKey = (id: string | null) => ['auth', 'user', id] as const;

export function currentUserQuery(id: string | null) {
  return queryOptions({
    queryKey: userQueryKey(id),
    queryFn: getSignedInUser,
    enabled: id !== null,
    retry: false,
  });
}
