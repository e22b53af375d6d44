import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages, type ApiSuccess, type User } from '@portal/shared';
import { api } from '../../../lib/api-client';

/** GET /auth/profile: the signed-in user. A body without success and data is refused. */
export async function getProfile(): Promise<User> {
  const body = await api.get<ApiSuccess<User> | null>('/auth/profile');
  if (!body?.success || !body.data) throw new Error(messages.common.apiBadShape);
  return body.data;
}

export const profileQueryKey = ['profile'] as const;

export const profileQuery = () => queryOptions({ queryKey: profileQueryKey, queryFn: getProfile });

export function useProfile() {
  return useQuery(profileQuery());
}
