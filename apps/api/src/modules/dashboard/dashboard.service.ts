import {
  DASHBOARD_MONTHS,
  DASHBOARD_RECENT_ACTIVITY,
  IST_OFFSET_MINUTES,
  messages,
  statLabels,
  welcomeBack,
  type Dashboard,
  type MonthPoint,
  type StatCard,
  type StatFormat,
  type StatKey,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../core/actor.js';
import { recentActivities } from '../activity/activity.repo.js';
import * as repo from './dashboard.repo.js';

const IST_OFFSET_MS = IST_OFFSET_MINUTES * 60_000;

/** Start (as an instant) of the IST calendar month `offset` months from the one holding `now`. */
export function istMonthStart(now: Date, offset = 0): Date {
  const wall = new Date(now.getTime() + IST_OFFSET_MS);
  return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + offset, 1) - IST_OFFSET_MS);
}

function monthKeyOf(start: Date): string {
  const wall = new Date(start.getTime() + IST_OFFSET_MS);
  return `${wall.getUTCFullYear()}-${String(wall.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The last DASHBOARD_MONTHS months, oldest first, missing months as 0. */
function monthSeries(now: Date, values: Map<string, number>): MonthPoint[] {
  return Array.from({ length: DASHBOARD_MONTHS }, (_, i) => {
    const month = monthKeyOf(istMonthStart(now, i - DASHBOARD_MONTHS + 1));
    return { month, value: values.get(month) ?? 0 };
  });
}

function card(key: StatKey, format: StatFormat, value: number | string | null): StatCard {
  return { key, label: statLabels[key], format, value };
}

export async function buildDashboard(db: Db, auth: Actor, now = new Date()): Promise<Dashboard> {
  const monthStart = istMonthStart(now);
  const nextMonthStart = istMonthStart(now, 1);
  const seriesFrom = istMonthStart(now, -(DASHBOARD_MONTHS - 1));
  const name = (await repo.displayName(db, auth.userId)) ?? '';
  const welcomeMessage = welcomeBack(name);

  if (auth.isSuperAdmin) {
    const [orgs, admins, activeSubs, sales, tickets, byMonth, recent] = await Promise.all([
      repo.countTenantOrganizations(db),
      repo.countActiveAdmins(db),
      repo.countActiveSubscriptions(db, now),
      repo.salesBetween(db, monthStart, nextMonthStart),
      repo.countOpenTickets(db, null),
      repo.revenueByMonth(db, seriesFrom),
      recentActivities(db, null, DASHBOARD_RECENT_ACTIVITY),
    ]);
    return {
      welcomeMessage,
      scope: 'platform',
      stats: [
        card('organizations', 'count', orgs),
        card('activeAdmins', 'count', admins),
        card('activeSubscriptions', 'count', activeSubs),
        card('creditsSoldThisMonth', 'count', sales.credits),
        card('revenueThisMonth', 'paise', sales.revenuePaise),
        card('openTickets', 'count', tickets),
      ],
      series: {
        kind: 'revenue',
        title: messages.dashboard.revenueByMonth,
        format: 'paise',
        points: monthSeries(now, byMonth),
      },
      recentActivity: recent,
    };
  }

  const org = auth.organizationId;
  const [balance, validUntil, tickets, byMonth, recent] = await Promise.all([
    repo.creditBalance(db, org),
    repo.latestValidUntil(db, org),
    repo.countOpenTickets(db, org),
    repo.creditUseByMonth(db, org, seriesFrom),
    recentActivities(db, org, DASHBOARD_RECENT_ACTIVITY),
  ]);
  return {
    welcomeMessage,
    scope: 'organization',
    stats: [
      card('creditsLeft', 'count', balance),
      card('validUntil', 'date', validUntil?.toISOString() ?? null),
      card('openTickets', 'count', tickets),
    ],
    series: {
      kind: 'creditUsage',
      title: messages.dashboard.creditUseByMonth,
      format: 'count',
      points: monthSeries(now, byMonth),
    },
    recentActivity: recent,
  };
}
