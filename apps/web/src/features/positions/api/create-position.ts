import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, CreatePositionBody, Position } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { positionsQueryKey } from './get-positions';

export async function createPosition(body: CreatePositionBody): Promise<Position> {
  return (await api.post<ApiSuccess<Position>>('/auth/positions', body)).data;
}

export function useCreatePosition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPosition,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: positionsQueryKey }),
  });
}
