import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { messages, renewalListItemSchema, undeliveredMailSchema, type SessionUser } from '@portal/shared';
import { renderAt } from '../../test/render-at';
import { page } from '../../test/responses';
import { server } from '../../test/server';
import { aSuperAdmin, aTenantAdmin } from '../../test/users';
import { ProtectedLayout } from '../guard';
import { FullScreenLoading } from '../loading-layer';
import { dashboardChildren } from '../routes';

/** The shell with the app's own pages below `prefix`, as the route table assembles them. */
function renderShell(path: string, user: SessionUser) {
  server.use(http.get('/api/auth/mail/undelivered', () => page(undeliveredMailSchema, [])));
  return renderAt(path, {
    routes: [
      {
        // While the first page's code loads, as in the app's route table.
        HydrateFallback: FullScreenLoading,
        children: [
          { path: '/dashboard', element: <ProtectedLayout />, children: dashboardChildren },
          { path: '/logindashboard', element: <ProtectedLayout />, children: dashboardChildren },
        ],
      },
    ],
    user,
  });
}

async function mainNavigation() {
  return screen.findByRole('navigation', { name: 'Main', hidden: true });
}

describe('Undelivered mail in the shell', () => {
  it.each(['/dashboard', '/logindashboard'])(
    'is offered to the super administrator in the sidebar, and opens at %s/mail',
    async (prefix) => {
      await renderShell(`${prefix}/mail`, aSuperAdmin());
      expect(await screen.findByRole('heading', { level: 1, name: messages.mail.title })).toBeTruthy();
      expect(await screen.findByText(messages.mail.empty)).toBeTruthy();
      const link = within(await mainNavigation()).getByRole('link', {
        name: messages.mail.title,
        hidden: true,
      });
      expect(link.getAttribute('href')).toBe(`${prefix}/mail`);
    },
  );

  it('is not offered to a tenant admin, and its address gets the refusal other guarded pages give', async () => {
    await renderShell('/dashboard/mail', aTenantAdmin());
    expect(await screen.findByRole('heading', { level: 1, name: messages.http.forbidden })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: messages.mail.title })).toBeNull();
    const nav = await mainNavigation();
    // The tenant admin's own pages are there; the platform operator's is not.
    expect(within(nav).getByRole('link', { name: messages.users.title, hidden: true })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: messages.mail.title, hidden: true })).toBeNull();
  });
});

describe('Renewals in the shell', () => {
  it('is offered to the super administrator beside Undelivered mail, and opens at /dashboard/renewals', async () => {
    server.use(http.get('/api/auth/renewals', () => page(renewalListItemSchema, [])));
    await renderShell('/dashboard/renewals', aSuperAdmin());
    expect(await screen.findByRole('heading', { level: 1, name: 'Renewals' })).toBeTruthy();
    const links = within(await mainNavigation())
      .getAllByRole('link', { hidden: true })
      .map((l) => l.textContent);
    expect(links.indexOf('Renewals')).toBe(links.indexOf(messages.mail.title) + 1);
  });

  it('is not offered to a tenant admin', async () => {
    await renderShell('/dashboard/renewals', aTenantAdmin());
    expect(await screen.findByRole('heading', { level: 1, name: messages.http.forbidden })).toBeTruthy();
    const nav = await mainNavigation();
    expect(within(nav).queryByRole('link', { name: 'Renewals', hidden: true })).toBeNull();
  });
});
