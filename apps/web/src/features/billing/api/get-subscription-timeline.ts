import { SUBSCRIPTION_TIMELINE_ENTITIES, type ActivityItem } from '@portal/shared';
import { pagedList, type PageParams } from '../../../lib/paged-list';
import { billingPlanQueryKey } from './get-billing-plan';

export interface TimelineParams extends PageParams {
  organizationId: string;
}

/** The activity kinds of a subscription's timeline, as the feed's `entityType` filter takes them. */
export const TIMELINE_ENTITY_TYPES = SUBSCRIPTION_TIMELINE_ENTITIES.join(',');

/**
 * GET /auth/activities of an organization's subscription (notices, debits, skips, plan changes, past
 * due, suspension, payments), newest first. Under the plan's key: whatever changes the plan (a
 * payment verified, new terms, a skip) reads it again. The renewal job adds to it: read afresh.
 */
export const subscriptionTimeline = pagedList<ActivityItem, TimelineParams & { entityType: string }>({
  key: [...billingPlanQueryKey, 'timeline'],
  path: '/auth/activities',
  staleTime: 0,
});

export function useSubscriptionTimeline(params: TimelineParams) {
  return subscriptionTimeline.useList({ ...params, entityType: TIMELINE_ENTITY_TYPES });
}
