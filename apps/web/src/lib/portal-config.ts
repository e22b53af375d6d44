import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess } from '@portal/shared';
import { api } from './api-client';

export interface PortalConfig {
  productUrl: string;
  chatbotUrl: string;
  paymentProvider: 'sandbox' | 'razorpay';
  razorpayKeyId: string | null;
}

export const portalConfigQuery = queryOptions({
  queryKey: ['portal-config'],
  queryFn: () => api.get<ApiSuccess<PortalConfig>>('/config').then((r) => r.data),
  staleTime: Infinity,
});

export function usePortalConfig() {
  return useQuery(portalConfigQuery);
}
