import { z } from 'zod';
import { listQuerySchema } from './common.js';

export const NOTIFICATION_KINDS = [
  'ticket_created',
  'payment_verified',
  'subscription_expiring',
  'subscription_expired',
  'invoice_issued',
  'refund_processed',
  'mail_undelivered',
  'renewal_notice',
  'renewal_charged',
  'renewal_failed',
  'import_finished',
] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** How often the bell asks for the unread count. */
export const NOTIFICATIONS_POLL_MS = 60_000;

export const notificationSchema = z.object({
  id: z.string(),
  kind: notificationKindSchema,
  title: z.string(),
  body: z.string(),
  /** A path inside the portal, e.g. `/dashboard/support`. */
  link: z.string().nullable(),
  read: z.boolean(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PortalNotification = z.infer<typeof notificationSchema>;

const booleanQuery = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

export const notificationListQuerySchema = listQuerySchema.pick({ page: true, pageSize: true }).extend({
  unreadOnly: booleanQuery,
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

export const notificationPageMetaSchema = z.object({
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
  unreadCount: z.number(),
});
export type NotificationPageMeta = z.infer<typeof notificationPageMetaSchema>;

export const unreadCountSchema = z.object({ count: z.number() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;
