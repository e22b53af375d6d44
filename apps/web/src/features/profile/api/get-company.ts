import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, CompanyDetails, OnboardingTaxParticulars } from '@portal/shared';
import { api } from '../../../lib/api-client';

/** The saved details (null while none), and the GST particulars given at onboarding to start from. */
export interface CompanyAnswer {
  details: CompanyDetails | null;
  onboarding: OnboardingTaxParticulars | null;
}

/** GET /auth/companies/:organizationId. */
export async function getCompany(organizationId: string): Promise<CompanyAnswer> {
  const body = await api.get<
    ApiSuccess<CompanyDetails | null> & { onboarding?: OnboardingTaxParticulars | null }
  >(`/auth/companies/${encodeURIComponent(organizationId)}`);
  return { details: body.data ?? null, onboarding: body.onboarding ?? null };
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
