import type { ActivityItem, ActivityType } from '@portal/shared';
import { pagedList } from '../../../lib/paged-list';

export interface ActivitiesParams {
  page: number;
  pageSize: number;
  type?: ActivityType | undefined;
  search?: string | undefined;
}

export const activitiesQueryKey = ['activities'] as const;

// The feed changes with every action anywhere in the portal: refetch on each visit.
export const activities = pagedList<ActivityItem, ActivitiesParams>({
  key: activitiesQueryKey,
  path: '/auth/activities',
  staleTime: 0,
});
export const useActivities = activities.useList;
