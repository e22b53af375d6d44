import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Feature } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { featuresFromBody } from '../utils/role-shape';

export async function getFeatures(): Promise<Feature[]> {
  return featuresFromBody(await api.get<unknown>('/auth/features'));
}

export const featuresQuery = () => queryOptions({ queryKey: ['features'], queryFn: getFeatures });

export function useFeatures() {
  return useQuery(featuresQuery());
}
