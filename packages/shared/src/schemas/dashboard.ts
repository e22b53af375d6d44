import { z } from 'zod';
import { activityItemSchema } from './activity.js';

/** Months on the home chart, the current one included. */
export const DASHBOARD_MONTHS = 12;
export const DASHBOARD_RECENT_ACTIVITY = 8;
// "This month" and the chart's months are calendar months in India Standard Time (BUSINESS_TIME_ZONE, india-time.ts).

export const STAT_KEYS = [
  'organizations',
  'activeAdmins',
  'activeSubscriptions',
  'creditsSoldThisMonth',
  'revenueThisMonth',
  'openTickets',
  'creditsLeft',
  'validUntil',
] as const;
export type StatKey = (typeof STAT_KEYS)[number];

/** How the web formats a card's value: a count, an amount in paise, or an ISO date (null: none). */
export const statFormatSchema = z.enum(['count', 'paise', 'date']);
export type StatFormat = z.infer<typeof statFormatSchema>;

export const statCardSchema = z.object({
  key: z.enum(STAT_KEYS),
  label: z.string(),
  format: statFormatSchema,
  value: z.union([z.number(), z.string(), z.null()]),
});
export type StatCard = z.infer<typeof statCardSchema>;

export const monthPointSchema = z.object({
  /** `YYYY-MM` */
  month: z.string(),
  value: z.number(),
});
export type MonthPoint = z.infer<typeof monthPointSchema>;

export const dashboardSeriesSchema = z.object({
  kind: z.enum(['revenue', 'creditUsage']),
  title: z.string(),
  /** `paise` for revenue, `count` for credits. */
  format: statFormatSchema,
  points: z.array(monthPointSchema),
});
export type DashboardSeries = z.infer<typeof dashboardSeriesSchema>;

export const dashboardSchema = z.object({
  welcomeMessage: z.string(),
  scope: z.enum(['platform', 'organization']),
  stats: z.array(statCardSchema),
  series: dashboardSeriesSchema,
  recentActivity: z.array(activityItemSchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const statLabels: Record<StatKey, string> = {
  organizations: 'Organizations',
  activeAdmins: 'Active admins',
  activeSubscriptions: 'Active subscriptions',
  creditsSoldThisMonth: 'Credits sold this month',
  revenueThisMonth: 'Revenue this month',
  openTickets: 'Open tickets',
  creditsLeft: 'Credits left',
  validUntil: 'Valid until',
};
