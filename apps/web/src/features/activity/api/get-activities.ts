import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityItem, ActivityType, ApiPage } from '@portal/shared';
import { api } from '../../../lib/api-client';

export interface ActivitiesParams {
  page: number;
  pageSize: number;
  type?: ActivityType | undefined;
  search?: string | undefined;
}

export function getActivities(params: ActivitiesParams): Promise<ApiPage<ActivityItem>> {
  return api.get<ApiPage<ActivityItem>>('/auth/activities', {
    params: { page: params.page, pageSize: params.pageSize, type: params.type, search: params.search },
  });
}

export const activitiesQueryKey = ['activities'] as const;

export const activitiesQuery = (params: ActivitiesParams) =>
  queryOptions({
    queryKey: [...activitiesQueryKey, params],
    queryFn: () => getActivities(params),
    placeholderData: keepPreviousData,
    // The feed changes with every action anywhere in the portal: refetch on each visit.
    staleTime: 0,
  });

export function useActivities(params: ActivitiesParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...activitiesQuery(params), enabled: options.enabled ?? true });
}
