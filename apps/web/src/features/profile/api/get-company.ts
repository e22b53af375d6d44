import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, CompanyDetails } from '@portal/shared';
import { api } from '../../../lib/api-client';

/** GET /auth/companies/:organizationId; null while the organization has saved none. */
export async function getCompany(organizationId: string): Promise<CompanyDetails | null> {
  const body = await api.get<ApiSuccess<CompanyDetails | null>>(
    `/auth/companies/${encodeURIComponent(organizationId)}`,
  );
  return body.data ?? null;
}

export const companyQueryKey = (organizationId: string | null) => ['company', organizationId] as const;

export const companyQuery = (organizationId: string | null) =>
  queryOptions({
    queryKey: companyQueryKey(organizationId),
    queryFn: () => getCompany(organizationId!),
    enabled: organizationId !== null,
  });

export function useCompany(organizationId: string | null, enabled = true) {
  return useQuery({ ...companyQuery(organizationId), enabled: enabled && organizationId !== null });
}
