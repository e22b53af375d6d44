import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, Position, UpdatePositionBody } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { positionsQueryKey } from './get-positions';

export async function updatePosition({
  id,
  body,
}: {
  id: string;
  body: UpdatePositionBody;
}): Promise<Position> {
  return (await api.put<ApiSuccess<Position>>(`/auth/positions/${encodeURIComponent(id)}`, body)).data;
}

export function useUpdatePosition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePosition,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: positionsQueryKey }),
  });
}
