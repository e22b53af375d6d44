import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, CompanyDetails, CompanyDetailsBody } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { companyQueryKey, type CompanyAnswer } from './get-company';

/** POST /auth/companies: creates or replaces the organization's company details. */
export async function saveCompany(body: CompanyDetailsBody): Promise<CompanyDetails> {
  return (await api.post<ApiSuccess<CompanyDetails>>('/auth/companies', body)).data;
}

export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCompany,
    onSuccess: (details) =>
      queryClient.setQueryData<CompanyAnswer>(companyQueryKey(details.organizationId), {
        details,
        onboarding: null,
      }),
  });
}
