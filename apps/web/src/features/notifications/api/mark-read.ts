import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, PortalNotification } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { notificationsQueryKey } from './get-unread-count';

export async function markNotificationRead(id: string): Promise<PortalNotification> {
  const body = await api.put<ApiSuccess<PortalNotification>>(
    `/auth/notifications/${encodeURIComponent(id)}/read`,
  );
  return body.data;
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}
