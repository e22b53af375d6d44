import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiPage, Position, PositionStatus } from '@portal/shared';
import { api } from '../../../lib/api-client';

export interface PositionsParams {
  page: number;
  pageSize: number;
  search?: string | undefined;
  status?: PositionStatus | undefined;
}

export function getPositions(params: PositionsParams): Promise<ApiPage<Position>> {
  return api.get<ApiPage<Position>>('/auth/positions', {
    params: { page: params.page, pageSize: params.pageSize, search: params.search, status: params.status },
  });
}

export const positionsQueryKey = ['positions'] as const;

export const positionsQuery = (params: PositionsParams) =>
  queryOptions({
    queryKey: [...positionsQueryKey, 'list', params],
    queryFn: () => getPositions(params),
    placeholderData: keepPreviousData,
  });

export function usePositions(params: PositionsParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...positionsQuery(params), enabled: options.enabled ?? true });
}
