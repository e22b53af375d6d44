import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { notificationsQueryKey } from './get-unread-count';

export async function markAllNotificationsRead(): Promise<number> {
  const body = await api.put<ApiSuccess<{ updated: number }>>('/auth/notifications/read-all');
  return body.data.updated;
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}
