import {
  DASHBOARD_MONTHS,
  DASHBOARD_RECENT_ACTIVITY,
  istDate,
  istMonthOf,
  istMonthStart,
  messages,
  statLabels,
  welcomeBack,
  type Dashboard,
  type MonthPoint,
  type StatCard,
  type StatFormat,
  type StatKey,
} from '@portal/shared';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { recentActivities } from '../activity/index.js';
import * as repo from './dashboard.repo.js';

/** Start (as an instant) of the IST calendar month `offset` months from the one holding `now`. */
function monthStart(now: Date, offset = 0): Date {
  const { year, month } = istMonthOf(now);
  return istMonthStart(year, month + offset);
}

/** `YYYY-MM` of the IST calendar month that starts at `start`. */
function monthKeyOf(start: Date): string {
  return istDate(start).slice(0, 7);
}

/** The last DASHBOARD_MONTHS months, oldest first, missing months as 0. */
function monthSeries(now: Date, values: Map<string, number>): MonthPoint[] {
  return Array.from({ length: DASHBOARD_MONTHS }, (_, i) => {
    const month = monthKeyOf(monthStart(now, i - DASHBOARD_MONTHS + 1));
    return { month, value: values.get(month) ?? 0 };
  });
}

function card(key: StatKey, format: StatFormat, value: number | string | null): StatCard {
  return { key, label: statLabels[key], format, value };
}

/** The home page: the platform's figures for super_admin, the organization's for everyone else. */
export async function buildDashboard(deps: Deps, actor: Actor): Promise<Dashboard> {
  const db = deps.db;
  const now = new Date();
  const thisMonthStart = monthStart(now);
  const nextMonthStart = monthStart(now, 1);
  const seriesFrom = monthStart(now, -(DASHBOARD_MONTHS - 1));
  const name = (await repo.displayName(db, actor.userId)) ?? '';
  const welcomeMessage = welcomeBack(name);

  if (actor.isSuperAdmin) {
    const [orgs, admins, activeSubs, sales, tickets, byMonth, recent] = await Promise.all([
      repo.countTenantOrganizations(db),
      repo.countActiveAdmins(db),
      repo.countActiveSubscriptions(db, now),
      repo.salesBetween(db, thisMonthStart, nextMonthStart),
      repo.countOpenTickets(db, null),
      repo.revenueByMonth(db, seriesFrom),
      recentActivities(deps, actor, { limit: DASHBOARD_RECENT_ACTIVITY }),
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

  const org = actor.organizationId;
  const [balance, validUntil, tickets, byMonth, recent] = await Promise.all([
    repo.creditBalance(db, org),
    repo.latestValidUntil(db, org),
    repo.countOpenTickets(db, org),
    repo.creditUseByMonth(db, org, seriesFrom),
    recentActivities(deps, actor, { limit: DASHBOARD_RECENT_ACTIVITY }),
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
