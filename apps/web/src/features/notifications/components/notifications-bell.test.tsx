import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, NOTIFICATIONS_POLL_MS, type PortalNotification } from '@portal/shared';
import { unreadCountQuery } from '../api/get-unread-count';
import { bellLabel, linkUnderPrefix, NotificationsBell } from './notifications-bell';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
// Which pages the signed-in user may open (a link is offered only to those).
const openable = vi.hoisted(() => ({ pages: new Set(['', 'billing', 'support']) }));
vi.mock('../../auth/use-permission', () => ({
  usePermissions: () => ({ mayOpen: (path: string) => openable.pages.has(path) }),
}));

function note(overrides: Partial<PortalNotification>): PortalNotification {
  return {
    id: 'n1',
    kind: 'payment_verified',
    title: 'Payment verified successfully.',
    body: '100 interview credits were added.',
    link: '/dashboard/billing',
    read: false,
    readAt: null,
    createdAt: '2025-05-01T10:00:00.000Z',
    ...overrides,
  };
}

let store: PortalNotification[];

function serve() {
  apiMock.get.mockImplementation(async (path: string) => {
    const unread = store.filter((n) => !n.read).length;
    if (path === '/auth/notifications/unread-count') return { success: true, data: { count: unread } };
    if (path === '/auth/notifications')
      return {
        success: true,
        data: store,
        meta: { page: 1, pageSize: 10, total: store.length, unreadCount: unread },
      };
    throw new Error(`unexpected ${path}`);
  });
  apiMock.put.mockImplementation(async (path: string) => {
    if (path === '/auth/notifications/read-all') {
      const updated = store.filter((n) => !n.read).length;
      store = store.map((n) => ({ ...n, read: true, readAt: n.readAt ?? '2025-05-02T00:00:00.000Z' }));
      return { success: true, data: { updated } };
    }
    const id = /\/auth\/notifications\/(.+)\/read$/.exec(path)?.[1];
    store = store.map((n) => (n.id === id ? { ...n, read: true, readAt: '2025-05-02T00:00:00.000Z' } : n));
    return { success: true, data: store.find((n) => n.id === id) };
  });
}

function renderBell(path = '/dashboard') {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <NotificationsBell /> },
      { path: '/logindashboard', element: <NotificationsBell /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SnackbarProvider>
        <RouterProvider router={router} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  vi.clearAllMocks();
  store = [
    note({
      id: 'n2',
      title: 'Subscription expiring soon',
      kind: 'subscription_expiring',
      createdAt: '2025-05-03T10:00:00.000Z',
    }),
    note({ id: 'n1' }),
    note({ id: 'n0', title: 'Old news', read: true, readAt: '2025-04-01T00:00:00.000Z', link: null }),
  ];
  serve();
});

describe('NotificationsBell', () => {
  it('names the unread count in its label and polls it every 60 seconds', async () => {
    renderBell();
    expect(await screen.findByRole('button', { name: bellLabel(2) })).toBeTruthy();
    expect(bellLabel(2)).toContain('2 unread');
    expect(unreadCountQuery().refetchInterval).toBe(NOTIFICATIONS_POLL_MS);
    expect(NOTIFICATIONS_POLL_MS).toBe(60_000);
  });

  it('lists title, body, date and link, and marks one read', async () => {
    const user = userEvent.setup();
    renderBell();
    await user.click(await screen.findByRole('button', { name: bellLabel(2) }));
    const dialog = await screen.findByRole('dialog', { name: messages.notifications.title });
    const list = await within(dialog).findByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining('Subscription expiring soon'),
      expect.stringContaining('100 interview credits were added.'),
      expect.stringContaining('Old news'),
    ]);
    expect(
      within(items[0]!).getByRole('link', { name: 'Subscription expiring soon' }).getAttribute('href'),
    ).toBe('/dashboard/billing');
    expect(items[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2025-05-03T10:00:00.000Z');
    // A read notification offers no "mark as read".
    expect(within(items[2]!).queryByRole('button')).toBeNull();

    await user.click(
      within(items[1]!).getByRole('button', {
        name: `${messages.notifications.markRead}: Payment verified successfully.`,
      }),
    );
    expect(apiMock.put).toHaveBeenCalledWith('/auth/notifications/n1/read');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: bellLabel(1), hidden: true })).toBeTruthy(),
    );
  });

  it('marks all read', async () => {
    const user = userEvent.setup();
    renderBell();
    await user.click(await screen.findByRole('button', { name: bellLabel(2) }));
    await user.click(await screen.findByRole('button', { name: messages.notifications.markAllRead }));
    expect(apiMock.put).toHaveBeenCalledWith('/auth/notifications/read-all');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: bellLabel(0), hidden: true })).toBeTruthy(),
    );
  });

  it('follows a link on the current prefix and marks it read', async () => {
    const user = userEvent.setup();
    const router = renderBell('/logindashboard');
    await user.click(await screen.findByRole('button', { name: bellLabel(2) }));
    await user.click(await screen.findByRole('link', { name: 'Subscription expiring soon' }));
    expect(router.state.location.pathname).toBe('/logindashboard/billing');
    expect(apiMock.put).toHaveBeenCalledWith('/auth/notifications/n2/read');
  });

  it('shows a notification about a page the user may not open without a link to it', async () => {
    openable.pages.delete('billing');
    try {
      const user = userEvent.setup();
      renderBell();
      await user.click(await screen.findByRole('button', { name: bellLabel(2) }));
      expect(await screen.findByText('Subscription expiring soon')).toBeTruthy();
      expect(screen.queryByRole('link', { name: 'Subscription expiring soon' })).toBeNull();
    } finally {
      openable.pages.add('billing');
    }
  });

  it('says so when there is nothing', async () => {
    store = [];
    const user = userEvent.setup();
    renderBell();
    await user.click(await screen.findByRole('button', { name: bellLabel(0) }));
    expect(await screen.findByText(messages.notifications.empty)).toBeTruthy();
    expect(
      screen.getByRole('button', { name: messages.notifications.markAllRead }).hasAttribute('disabled'),
    ).toBe(true);
  });
});

describe('linkUnderPrefix', () => {
  it('keeps the user on the prefix in use', () => {
    expect(linkUnderPrefix('/dashboard/support', '/logindashboard')).toBe('/logindashboard/support');
    expect(linkUnderPrefix('/dashboard', '/logindashboard')).toBe('/logindashboard');
    expect(linkUnderPrefix('/dashboardx', '/logindashboard')).toBe('/dashboardx');
    expect(linkUnderPrefix('/logindashboard/billing', '/dashboard')).toBe('/dashboard/billing');
  });
});
