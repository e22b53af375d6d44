import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationPageMeta, PortalNotification } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { notificationsQueryKey } from './get-unread-count';

export const NOTIFICATIONS_SHOWN = 10;

export interface NotificationsPage {
  success: true;
  data: PortalNotification[];
  meta: NotificationPageMeta;
}

export function getNotifications(pageSize: number = NOTIFICATIONS_SHOWN): Promise<NotificationsPage> {
  return api.get<NotificationsPage>('/auth/notifications', { params: { page: 1, pageSize } });
}

export const notificationsQuery = () =>
  queryOptions({
    queryKey: [...notificationsQueryKey, 'list'],
    queryFn: () => getNotifications(),
    staleTime: 0,
  });

export function useNotifications(options: { enabled?: boolean } = {}) {
  return useQuery({ ...notificationsQuery(), enabled: options.enabled ?? true });
}
