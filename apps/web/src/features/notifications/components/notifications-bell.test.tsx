import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MAIL_KIND_LABELS,
  messages,
  notificationPageMetaSchema,
  notificationSchema,
  NOTIFICATIONS_POLL_MS,
  unreadCountSchema,
  type PortalNotification,
  type SessionUser,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { answer, ok } from '../../../test/responses';
import { sentRequests, server } from '../../../test/server';
import { aTenantAdmin, aUser, permission } from '../../../test/users';
import { unreadCountQuery } from '../api/get-unread-count';
import { bellLabel, linkUnderPrefix, NotificationsBell } from './notifications-bell';

/** GET /auth/notifications: its own envelope, the page's meta with the unread count. */
const notificationsPageSchema = z.object({
  success: z.literal(true),
  data: z.array(notificationSchema),
  meta: notificationPageMetaSchema,
});

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

const READ_AT = '2025-05-02T00:00:00.000Z';

function serve() {
  const unread = () => store.filter((n) => !n.read).length;
  server.use(
    http.get('/api/auth/notifications/unread-count', () => ok(unreadCountSchema, { count: unread() })),
    http.get('/api/auth/notifications', () =>
      answer(notificationsPageSchema, {
        success: true,
        data: store,
        meta: { page: 1, pageSize: 10, total: store.length, unreadCount: unread() },
      }),
    ),
    http.put('/api/auth/notifications/read-all', () => {
      const updated = unread();
      store = store.map((n) => ({ ...n, read: true, readAt: n.readAt ?? READ_AT }));
      return ok(z.object({ updated: z.number() }), { updated });
    }),
    http.put('/api/auth/notifications/:id/read', ({ params }) => {
      store = store.map((n) => (n.id === params.id ? { ...n, read: true, readAt: READ_AT } : n));
      return ok(
        notificationSchema,
        store.find((n) => n.id === params.id)!,
      );
    }),
  );
}

/** Who is signed in: a link is offered only to a page they may open (home, billing and support). */
let signedIn: SessionUser;

function renderBell(path = '/dashboard') {
  return renderAt(path, {
    element: <NotificationsBell />,
    others: ['/dashboard/billing', '/logindashboard/billing'],
    user: signedIn,
  });
}

beforeEach(() => {
  signedIn = aUser({
    permissions: [permission('subscriptions', ['READ']), permission('support', ['READ'])],
  });
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
    await renderBell();
    expect(await screen.findByRole('button', { name: bellLabel(2) })).toBeTruthy();
    expect(bellLabel(2)).toContain('2 unread');
    expect(unreadCountQuery().refetchInterval).toBe(NOTIFICATIONS_POLL_MS);
    expect(NOTIFICATIONS_POLL_MS).toBe(60_000);
  });

  it('lists title, body, date and link, and marks one read', async () => {
    const user = userEvent.setup();
    await renderBell();
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
    await waitFor(() =>
      expect(sentRequests('PUT').map((r) => r.path)).toEqual(['/auth/notifications/n1/read']),
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: bellLabel(1), hidden: true })).toBeTruthy(),
    );
  });

  it('marks all read', async () => {
    const user = userEvent.setup();
    await renderBell();
    await user.click(await screen.findByRole('button', { name: bellLabel(2) }));
    await user.click(await screen.findByRole('button', { name: messages.notifications.markAllRead }));
    await waitFor(() =>
      expect(sentRequests('PUT').map((r) => r.path)).toEqual(['/auth/notifications/read-all']),
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: bellLabel(0), hidden: true })).toBeTruthy(),
    );
  });

  it('follows a link on the current prefix and marks it read', async () => {
    const user = userEvent.setup();
    const { router } = await renderBell('/logindashboard');
    await user.click(await screen.findByRole('button', { name: bellLabel(2) }));
    await user.click(await screen.findByRole('link', { name: 'Subscription expiring soon' }));
    expect(router.state.location.pathname).toBe('/logindashboard/billing');
    await waitFor(() =>
      expect(sentRequests('PUT').map((r) => r.path)).toEqual(['/auth/notifications/n2/read']),
    );
  });

  it('shows a notification about a page the user may not open without a link to it', async () => {
    // Support, but no Subscription Management: no billing page.
    signedIn = aUser({ permissions: [permission('support', ['READ'])] });
    const user = userEvent.setup();
    await renderBell();
    await user.click(await screen.findByRole('button', { name: bellLabel(2) }));
    expect(await screen.findByText('Subscription expiring soon')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Subscription expiring soon' })).toBeNull();
  });

  it('tells an organization admin that a mail to one of theirs could not be delivered', async () => {
    signedIn = aTenantAdmin();
    const body = messages.mail.undeliveredBody(MAIL_KIND_LABELS.invitation, 'asha@acme.tset');
    store = [
      note({
        id: 'n3',
        kind: 'mail_undelivered',
        title: messages.mail.undeliveredTitle,
        body,
        // Only the super administrator can send it again, from a page of their own: no link.
        link: null,
      }),
    ];
    const user = userEvent.setup();
    await renderBell();
    await user.click(await screen.findByRole('button', { name: bellLabel(1) }));
    const item = within(await screen.findByRole('list', { name: messages.notifications.title })).getByRole(
      'listitem',
    );
    expect(within(item).getByText(messages.mail.undeliveredTitle)).toBeTruthy();
    expect(within(item).getByText(body)).toBeTruthy();
    expect(within(item).queryByRole('link')).toBeNull();
  });

  it('says so when there is nothing', async () => {
    store = [];
    const user = userEvent.setup();
    await renderBell();
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
