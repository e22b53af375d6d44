import { z } from 'zod';
import { listQuerySchema } from './common.js';

/** The four kinds of entry in the recent-activity feed. */
export const ACTIVITY_TYPES = ['created', 'updated', 'deleted', 'other'] as const;
export const activityTypeSchema = z.enum(ACTIVITY_TYPES);
export type ActivityType = z.infer<typeof activityTypeSchema>;

/** One entry of the feed, as the API sends it. */
export const activityItemSchema = z.object({
  id: z.string(),
  type: activityTypeSchema,
  message: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  organizationId: z.string(),
  actorUserId: z.string().nullable(),
  /** Full name, else username; null for system actions or a deleted user. */
  actorName: z.string().nullable(),
  /** ISO timestamp. */
  date: z.string(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const activityListQuerySchema = listQuerySchema.extend({
  type: activityTypeSchema.optional(),
  /** One kind of entity, or several separated by commas. */
  entityType: z.string().trim().min(1).max(200).optional(),
  /** super_admin only: narrow to one organization. Others are always confined to their own. */
  organizationId: z.uuid().optional(),
});
export type ActivityListQuery = z.infer<typeof activityListQuerySchema>;

/** How the feed names each type. */
export const activityTypeLabels: Record<ActivityType, string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  other: 'Other',
};

/** The kinds of activity that make up an organization's subscription timeline (Billing, Renewals). */
export const SUBSCRIPTION_TIMELINE_ENTITIES = [
  'billing_plan',
  'renewal',
  'subscription',
  'payment',
  'payment_order',
] as const;
