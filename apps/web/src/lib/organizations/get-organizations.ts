import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiPage, OrganizationSummary } from '@portal/shared';
import { api } from '../api-client';

/** GET /api/auth/organizations: every organization for super_admin, one's own otherwise. */
export async function getOrganizations(search: string | undefined): Promise<OrganizationSummary[]> {
  const body = await api.get<ApiPage<OrganizationSummary>>('/auth/organizations', {
    params: { search, pageSize: 100, sort: 'name', order: 'asc' },
  });
  return Array.isArray(body.data) ? body.data : [];
}

export const organizationsQuery = (search: string | undefined) =>
  queryOptions({
    queryKey: ['organizations', 'list', search ?? ''],
    queryFn: () => getOrganizations(search),
    placeholderData: keepPreviousData,
  });

export function useOrganizations(search: string | undefined, options: { enabled?: boolean } = {}) {
  return useQuery({ ...organizationsQuery(search), enabled: options.enabled ?? true });
}
