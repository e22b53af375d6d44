import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, Dashboard } from '@portal/shared';
import { api } from '../../../lib/api-client';

export async function getDashboard(): Promise<Dashboard> {
  const body = await api.get<ApiSuccess<Dashboard>>('/auth/dashboard');
  return body.data;
}

/** The dashboard is cached for 5 minutes; every visit still refreshes it in the background. */
export const dashboardQuery = () =>
  queryOptions({
    queryKey: ['dashboard'],
    queryFn: getDashboard,
    refetchOnMount: 'always',
  });

export function useDashboard(options: { enabled?: boolean } = {}) {
  return useQuery({ ...dashboardQuery(), enabled: options.enabled ?? true });
}
