import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, Position } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { positionsQueryKey } from './get-positions';

/** Close (status Closed, closedAt set) or reopen a position. */
export async function setPositionStatus({
  id,
  action,
}: {
  id: string;
  action: 'close' | 'reopen';
}): Promise<Position> {
  return (await api.put<ApiSuccess<Position>>(`/auth/positions/${encodeURIComponent(id)}/${action}`)).data;
}

export function useSetPositionStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPositionStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: positionsQueryKey }),
  });
}
