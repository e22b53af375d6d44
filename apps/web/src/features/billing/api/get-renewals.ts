import type { RenewalListItem, RenewalView } from '@portal/shared';
import { pagedList, type PageParams } from '../../../lib/paged-list';
import { billingQueryKey } from './get-credits';

export interface RenewalsParams extends PageParams {
  view: RenewalView;
}

/**
 * GET /auth/renewals: the operator's renewals of every organization, by view, paged by the server.
 * The renewal job changes them every 15 minutes: read afresh on every visit.
 */
export const renewals = pagedList<RenewalListItem, RenewalsParams>({
  key: [...billingQueryKey, 'renewals'],
  path: '/auth/renewals',
  staleTime: 0,
});
export const useRenewals = renewals.useList;
