import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  dashboardSchema,
  formatRupees,
  messages,
  statLabels,
  type Dashboard,
  type SessionUser,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, refusal } from '../../../test/responses';
import { sentRequests, server } from '../../../test/server';
import { aSuperAdmin, aUser, permission } from '../../../test/users';
import { HomePage } from './home-page';

/** Asha Rao in `role`, with Dashboard READ when `dashboard`. */
function user(role: string, dashboard: boolean): SessionUser {
  return aUser({
    role,
    username: 'asha',
    fullName: 'Asha Rao',
    permissions: dashboard ? [permission('dashboard', ['READ'])] : [],
  });
}

const months = Array.from({ length: 12 }, (_, i) => {
  const d = new Date(Date.UTC(2024, 6 + i, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
});

const platform: Dashboard = {
  welcomeMessage: 'Welcome back, Super Administrator',
  scope: 'platform',
  stats: [
    { key: 'organizations', label: statLabels.organizations, format: 'count', value: 4 },
    { key: 'activeAdmins', label: statLabels.activeAdmins, format: 'count', value: 12 },
    { key: 'activeSubscriptions', label: statLabels.activeSubscriptions, format: 'count', value: 3 },
    { key: 'creditsSoldThisMonth', label: statLabels.creditsSoldThisMonth, format: 'count', value: 1500 },
    { key: 'revenueThisMonth', label: statLabels.revenueThisMonth, format: 'paise', value: 16_800_000 },
    { key: 'openTickets', label: statLabels.openTickets, format: 'count', value: 2 },
  ],
  series: {
    kind: 'revenue',
    title: messages.dashboard.revenueByMonth,
    format: 'paise',
    points: months.map((month, i) => ({ month, value: i === 11 ? 16_800_000 : i === 10 ? 2_000_000 : 0 })),
  },
  recentActivity: [
    {
      id: 'a1',
      type: 'created',
      message: 'Position "Backend Engineer" created (2 openings)',
      entityType: 'position',
      entityId: 'p1',
      organizationId: 'o1',
      actorUserId: 'u1',
      actorName: 'Asha Rao',
      date: '2025-06-01T08:30:00.000Z',
    },
    {
      id: 'a2',
      type: 'deleted',
      message: 'Role "Temp" deleted',
      entityType: 'role',
      entityId: 'r9',
      organizationId: 'o1',
      actorUserId: null,
      actorName: null,
      date: '2025-05-31T08:30:00.000Z',
    },
  ],
};

let signedIn: SessionUser;

function renderHome() {
  return renderAt('/dashboard', {
    element: <HomePage />,
    others: ['/dashboard/activity'],
    user: signedIn,
  });
}

beforeEach(() => {
  signedIn = aSuperAdmin({ fullName: 'Asha Rao' });
  server.use(http.get('/api/auth/dashboard', () => ok(dashboardSchema, platform)));
});

describe('HomePage', () => {
  it('shows the welcome message and every stat card, money in rupees', async () => {
    await renderHome();
    expect(await screen.findByRole('heading', { name: 'Welcome back, Super Administrator' })).toBeTruthy();
    const cards = within(screen.getByRole('list', { name: 'Statistics' })).getAllByRole('listitem');
    expect(cards.map((c) => c.textContent)).toEqual([
      'Organizations4',
      'Active admins12',
      'Active subscriptions3',
      'Credits sold this month1,500',
      `Revenue this month${formatRupees(16_800_000)}`,
      'Open tickets2',
    ]);
    expect(formatRupees(16_800_000)).toBe('₹1,68,000.00');
  });

  it('draws one bar per month with its month and value, over a value axis, and the figures as a table for screen readers', async () => {
    await renderHome();
    const chart = await screen.findByRole('img', { name: messages.dashboard.revenueByMonth });
    const bars = [...chart.querySelectorAll<HTMLElement>('[data-month]')];
    expect(bars).toHaveLength(12);
    const row = (i: number) => bars[i]!.parentElement!.parentElement!.textContent;
    expect(row(11)).toBe(`Jun ’25${formatRupees(16_800_000)}`);
    expect(row(10)).toBe('May ’25₹20,000.00');
    expect(row(0)).toBe('Jul ’24₹0.00');
    // Two steps of ₹1,00,000 cover ₹1,68,000: the bars are 84% and 10% of the axis.
    const share = (i: number) => Number(bars[i]!.style.getPropertyValue('--share'));
    expect(share(11)).toBeCloseTo(0.84);
    expect(share(10)).toBeCloseTo(0.1);
    expect(share(0)).toBe(0);
    expect(chart.querySelector('[data-axis]')?.textContent).toBe('₹0₹1,00,000₹2,00,000');
    const table = screen.getByRole('table', { hidden: true });
    expect(within(table).getAllByRole('row', { hidden: true })).toHaveLength(13);
    expect(within(table).getAllByRole('row', { hidden: true })[12]!.textContent).toBe(
      `Jun 2025${formatRupees(16_800_000)}`,
    );
  });

  it('lists recent activity with type, message, date and a link to the full feed', async () => {
    await renderHome();
    const list = await screen.findByRole('list', { name: messages.activity.title });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]!.textContent).toContain('Created');
    expect(items[0]!.textContent).toContain('Position "Backend Engineer" created (2 openings)');
    expect(items[0]!.textContent).toContain('Asha Rao');
    expect(items[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2025-06-01T08:30:00.000Z');
    expect(items[1]!.textContent).toContain('Deleted');
    expect(screen.getByRole('link', { name: 'View all' }).getAttribute('href')).toBe('/dashboard/activity');
  });

  it("shows a tenant's cards, 'No subscription' without a date, and the empty activity text", async () => {
    signedIn = user('admin', true);
    const tenant: Dashboard = {
      welcomeMessage: 'Welcome back, Asha Rao',
      scope: 'organization',
      stats: [
        { key: 'creditsLeft', label: statLabels.creditsLeft, format: 'count', value: 94 },
        { key: 'validUntil', label: statLabels.validUntil, format: 'date', value: null },
        { key: 'openTickets', label: statLabels.openTickets, format: 'count', value: 0 },
      ],
      series: {
        kind: 'creditUsage',
        title: messages.dashboard.creditUseByMonth,
        format: 'count',
        points: months.map((month) => ({ month, value: 0 })),
      },
      recentActivity: [],
    };
    server.use(http.get('/api/auth/dashboard', () => ok(dashboardSchema, tenant)));
    await renderHome();
    expect(await screen.findByText(messages.activity.empty)).toBeTruthy();
    const cards = within(screen.getByRole('list', { name: 'Statistics' })).getAllByRole('listitem');
    expect(cards.map((c) => c.textContent)).toEqual([
      'Credits left94',
      `Valid until${messages.dashboard.noValidUntil}`,
      'Open tickets0',
    ]);
    // Every month at zero: the chart says so rather than drawing an empty box.
    expect(screen.getByRole('heading', { name: messages.dashboard.creditUseByMonth })).toBeTruthy();
    expect(screen.getByText(messages.dashboard.noChartData)).toBeTruthy();
    expect(screen.queryByRole('img', { name: messages.dashboard.creditUseByMonth })).toBeNull();
    expect(screen.queryByRole('link', { name: 'View all' })).toBeNull();
  });

  it('shows the server message when the dashboard cannot be loaded', async () => {
    server.use(
      http.get('/api/auth/dashboard', () =>
        refusal(500, 'Something went wrong on our side. Please try again.'),
      ),
    );
    await renderHome();
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeTruthy();
  });

  it('only welcomes a user without Dashboard READ, and asks the server nothing', async () => {
    signedIn = user('Recruiter', false);
    await renderHome();
    expect(await screen.findByRole('heading', { name: 'Welcome back, Asha Rao' })).toBeTruthy();
    // Only the session's own read of the signed-in user.
    expect(sentRequests().map((r) => r.path)).toEqual(['/auth/auth-session/me']);
  });
});
