import type { Position, PositionStatus } from '@portal/shared';
import { pagedList } from '../../../lib/paged-list';

export interface PositionsParams {
  page: number;
  pageSize: number;
  search?: string | undefined;
  status?: PositionStatus | undefined;
}

export const positionsQueryKey = ['positions'] as const;

export const positions = pagedList<Position, PositionsParams>({
  key: positionsQueryKey,
  path: '/auth/positions',
});
export const usePositions = positions.useList;
