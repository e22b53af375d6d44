import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, SellerTaxProfile, SellerTaxProfileFields } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { taxProfileQueryKey } from './get-tax-profile';

/** PUT /auth/tax-profile: sets the seller's tax details; invoices issued from now on carry them. */
export async function saveTaxProfile(body: SellerTaxProfileFields): Promise<SellerTaxProfile> {
  return (await api.put<ApiSuccess<SellerTaxProfile>>('/auth/tax-profile', body)).data;
}

export function useSaveTaxProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTaxProfile,
    onSuccess: (profile) => queryClient.setQueryData(taxProfileQueryKey, profile),
  });
}
