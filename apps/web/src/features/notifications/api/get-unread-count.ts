import { queryOptions, useQuery } from '@tanstack/react-query';
import { NOTIFICATIONS_POLL_MS, type ApiSuccess, type UnreadCount } from '@portal/shared';
import { api } from '../../../lib/api-client';

export const notificationsQueryKey = ['notifications'] as const;

export async function getUnreadCount(): Promise<number> {
  const body = await api.get<ApiSuccess<UnreadCount>>('/auth/notifications/unread-count');
  return body.data.count;
}

export const unreadCountQuery = () =>
  queryOptions({
    queryKey: [...notificationsQueryKey, 'unread-count'],
    queryFn: getUnreadCount,
    staleTime: 0,
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });

/** The bell's badge: asked every 60 s while the tab is visible. */
export function useUnreadCount(options: { enabled?: boolean } = {}) {
  return useQuery({ ...unreadCountQuery(), enabled: options.enabled ?? true });
}
