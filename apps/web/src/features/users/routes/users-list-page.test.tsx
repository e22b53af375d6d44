import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  endedSessionsSchema,
  INTERVIEW_BOT_PRODUCT_NAME,
  messages,
  SCOPES,
  userSchema,
  type SessionUser,
  type User,
} from '@portal/shared';
import { catchDownloads } from '../../../test/downloads';
import { renderAt } from '../../../test/render-at';
import { done, file, ok, pageOf, refusal, XLSX } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin, aUser, permission } from '../../../test/users';
import { labels } from '../labels';
import { UsersListPage } from './users-list-page';

const superAdmin = aSuperAdmin();
const active = aUser({ username: 'alice', email: 'alice@acme.test', fullName: 'Alice A' });
const inactive = aUser({ username: 'bob', isActive: false, enabled: false });
const pending = aUser({ username: 'carol', inviteStatus: 'pending', client: 'Carol Co' });
const expired = aUser({ username: 'dave', inviteStatus: 'expired' });

function serve(all: User[]) {
  server.use(
    http.get('/api/auth/users', ({ request }) => {
      const search = (new URL(request.url).searchParams.get('search') ?? '').toLowerCase();
      const matching = all.filter((u) => u.username.includes(search) || u.email.includes(search));
      return pageOf(userSchema, matching, request);
    }),
  );
}

let signedIn: SessionUser;

function renderList() {
  return renderAt('/dashboard/usermanagement', {
    element: <UsersListPage />,
    others: ['/dashboard/userroles', '/dashboard/inviteuser'],
    user: signedIn,
  });
}

function lastParams(): Record<string, string> {
  return lastRequest('GET', '/auth/users').query;
}

async function menuItems(username: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Actions for ${username}` }));
  const menu = await screen.findByRole('menu');
  return {
    user,
    menu,
    items: within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent),
  };
}

beforeEach(() => {
  signedIn = superAdmin;
  serve([active, inactive, pending, expired]);
});

describe('Admin Users', () => {
  it('asks the server for admin users, 10 per page, and shows the SPEC columns', async () => {
    await renderList();
    expect(await screen.findByRole('heading', { name: messages.users.title })).not.toBeNull();
    await screen.findByText('alice');
    expect(lastParams()).toMatchObject({ page: '1', pageSize: '10', role: 'admin' });
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['#Id', 'Name', 'Products', 'Email', 'Role', 'Status', 'Action']);
    const row = screen.getByText('alice').closest('tr')!;
    expect(within(row).getByText(INTERVIEW_BOT_PRODUCT_NAME)).not.toBeNull();
    expect(within(row).getByText('Active')).not.toBeNull();
    expect(within(screen.getByText('bob').closest('tr')!).getByText('Inactive')).not.toBeNull();
    expect(
      within(screen.getByText('carol').closest('tr')!).getByText(messages.users.invitePending),
    ).not.toBeNull();
    expect(
      within(screen.getByText('dave').closest('tr')!).getByText(messages.users.inviteExpired),
    ).not.toBeNull();
    expect(screen.getByRole('tab', { name: messages.users.subuserTab })).not.toBeNull();
  });

  it('searches on the server after typing stops, from page 1', async () => {
    await renderList();
    await screen.findByText('alice');
    await userEvent.setup().type(screen.getByRole('textbox', { name: messages.users.search }), 'car');
    await waitFor(() => expect(lastParams()).toMatchObject({ search: 'car', page: '1' }));
    await waitFor(() => expect(screen.queryByText('alice')).toBeNull());
    expect(screen.getByText('carol')).not.toBeNull();
  });

  it('pages through the server’s results and changes the page size', async () => {
    serve(Array.from({ length: 30 }, (_, i) => aUser({ username: `bulk${String(i).padStart(2, '0')}` })));
    await renderList();
    await screen.findByText('bulk00');
    expect(screen.getByText('1–10 of 30')).not.toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /next page/i }));
    await screen.findByText('bulk10');
    expect(lastParams()).toMatchObject({ page: '2', pageSize: '10' });
    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    await user.click(await screen.findByRole('option', { name: '25' }));
    await waitFor(() => expect(lastParams()).toMatchObject({ page: '1', pageSize: '25' }));
    await screen.findByText('bulk24');
  });

  it('shows the empty state', async () => {
    serve([]);
    await renderList();
    expect(await screen.findByText(messages.users.empty)).not.toBeNull();
    // The empty text alone: no "0–0 of 0" pager under it.
    expect(screen.queryByText(/of 0/)).toBeNull();
    expect(screen.queryByRole('combobox', { name: /Rows per page/ })).toBeNull();
  });

  it('offers only View to a user who may read but not change users', async () => {
    signedIn = aUser({ role: 'Reader', permissions: [permission('users', ['READ'])] });
    await renderList();
    const { items } = await menuItems('carol');
    expect(items).toEqual([messages.users.view]);
    expect(screen.queryByRole('button', { name: messages.users.inviteAdmin })).toBeNull();
    expect(screen.queryByRole('button', { name: messages.common.exportToExcel })).toBeNull();
  });

  it('offers Edit, View, Deactivate, Resend invite and End all sessions to the platform operator', async () => {
    await renderList();
    expect((await menuItems('carol')).items).toEqual([
      messages.users.edit,
      messages.users.view,
      messages.users.deactivate,
      messages.users.resendInvite,
      labels.endSessions,
    ]);
  });

  it('deactivates after confirmation and says so', async () => {
    server.use(
      http.put('/api/auth/users/:id/deactivate', () =>
        ok(
          userSchema,
          { ...active, isActive: false, enabled: false },
          { message: messages.users.deactivated },
        ),
      ),
    );
    await renderList();
    const { user } = await menuItems('alice');
    await user.click(screen.getByRole('menuitem', { name: messages.users.deactivate }));
    const dialog = await screen.findByRole('dialog', { name: messages.users.deactivateTitle });
    expect(sentRequests('PUT')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: messages.users.deactivate }));
    expect(await screen.findByText(messages.users.deactivated)).not.toBeNull();
    expect(sentRequests('PUT').map((r) => r.path)).toEqual([`/auth/users/${active.id}/deactivate`]);
  });

  it('activates after confirmation, and shows the server’s message when it fails', async () => {
    server.use(http.put('/api/auth/users/:id/activate', () => refusal(404, 'User not found')));
    await renderList();
    const { user } = await menuItems('bob');
    await user.click(screen.getByRole('menuitem', { name: messages.users.activate }));
    const dialog = await screen.findByRole('dialog', { name: messages.users.activateTitle });
    await user.click(within(dialog).getByRole('button', { name: messages.users.activate }));
    expect(await screen.findByText('User not found')).not.toBeNull();
    expect(sentRequests('PUT').map((r) => r.path)).toEqual([`/auth/users/${inactive.id}/activate`]);
  });

  it('resends an invitation', async () => {
    server.use(
      http.post('/api/auth/users/:id/resend-invite', () =>
        ok(userSchema, pending, { message: messages.users.inviteResent }),
      ),
    );
    await renderList();
    const { user } = await menuItems('carol');
    await user.click(screen.getByRole('menuitem', { name: messages.users.resendInvite }));
    expect(await screen.findByText(messages.users.inviteResent)).not.toBeNull();
    expect(sentRequests('POST').map((r) => r.path)).toEqual([`/auth/users/${pending.id}/resend-invite`]);
  });

  it('shows the details panel, whose Edit Admin button opens the edit form', async () => {
    const { router } = await renderList();
    const { user } = await menuItems('carol');
    await user.click(screen.getByRole('menuitem', { name: messages.users.view }));
    const panel = await screen.findByRole('dialog', { name: messages.users.detailsTitle });
    for (const label of [
      'ID',
      'Organization ID',
      'Mobile Number',
      'Client',
      'Role',
      'Created At',
      'Updated At',
    ]) {
      expect(within(panel).getByText(label)).not.toBeNull();
    }
    expect(within(panel).getByText('Carol Co')).not.toBeNull();
    await user.click(within(panel).getByRole('button', { name: messages.users.editAdmin }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/inviteuser'));
    expect(router.state.location.search).toBe(`?edit=${pending.id}`);
  });

  it('exports the filtered list as .xlsx through the API client', async () => {
    server.use(http.get('/api/auth/users/export', () => file('users-2025-01-31.xlsx', XLSX)));
    const downloads = catchDownloads();
    await renderList();
    await screen.findByText('alice');
    await userEvent.setup().click(screen.getByRole('button', { name: messages.common.exportToExcel }));
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['users-2025-01-31.xlsx']));
    expect(lastRequest('GET', '/auth/users/export').query).toEqual({ format: 'xlsx', role: 'admin' });
  });

  it('goes to the roles list from the Roles tab and to the invite form from Invite Admin', async () => {
    const { router } = await renderList();
    await screen.findByText('alice');
    await userEvent.setup().click(screen.getByRole('tab', { name: messages.users.rolesTab }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/userroles'));
  });
});

describe('Admin Users: the ways to import', () => {
  const importLinks = () =>
    screen
      .queryAllByRole('link')
      .filter((l) => /^Import /.test(l.textContent ?? ''))
      .map((l) => [l.textContent, l.getAttribute('href')]);

  it('offers the users import to a holder of User Management IMPORT, and no organizations import', async () => {
    signedIn = aUser({ role: 'Importer', permissions: [permission('users', ['READ', 'IMPORT'])] });
    await renderList();
    await screen.findByText('alice');
    expect(importLinks()).toEqual([[labels.importUsers, '/dashboard/imports/users']]);
  });

  it('offers no import to a member without IMPORT', async () => {
    signedIn = aUser({
      role: 'Reader',
      permissions: [
        permission(
          'users',
          [...SCOPES].filter((s) => s !== 'IMPORT'),
        ),
      ],
    });
    await renderList();
    await screen.findByText('alice');
    expect(importLinks()).toEqual([]);
  });

  it('offers the organizations import to a holder of Organization Management IMPORT, both to the platform operator', async () => {
    signedIn = aUser({
      role: 'Onboarding',
      permissions: [permission('users', ['READ']), permission('organizations', ['IMPORT'])],
    });
    await renderList();
    await screen.findByText('alice');
    expect(importLinks()).toEqual([[labels.importOrganizations, '/dashboard/imports/organizations']]);

    cleanup();
    signedIn = superAdmin;
    await renderList();
    await screen.findByText('alice');
    expect(importLinks()).toEqual([
      [labels.importUsers, '/dashboard/imports/users'],
      [labels.importOrganizations, '/dashboard/imports/organizations'],
    ]);
  });
});

describe('Admin Users: ending a user’s sessions', () => {
  /** Manages users in their own organization, but is not the platform operator. */
  const tenantAdmin = aUser({
    username: 'tenant',
    role: 'admin',
    permissions: [permission('users', ['READ', 'UPDATE']), permission('organizations', ['READ'])],
  });

  it('asks first, then ends every session of the user and says so', async () => {
    server.use(
      http.post('/api/auth/users/:id/end-sessions', () =>
        ok(endedSessionsSchema, { ended: 2 }, { message: messages.sessions.userSessionsEnded }),
      ),
    );
    await renderList();
    const { user } = await menuItems('alice');
    await user.click(screen.getByRole('menuitem', { name: labels.endSessions }));
    const dialog = await screen.findByRole('dialog', { name: labels.endSessionsTitle });
    expect(within(dialog).getByText(labels.endSessionsConfirm('alice'))).not.toBeNull();
    expect(sentRequests('POST')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: labels.endSessions }));
    expect(await screen.findByText(messages.sessions.userSessionsEnded)).not.toBeNull();
    expect(sentRequests('POST').map((r) => r.path)).toEqual([`/auth/users/${active.id}/end-sessions`]);
  });

  it('offers it in the details panel, but not for the operator’s own account', async () => {
    serve([active, superAdmin]);
    await renderList();
    const { user } = await menuItems('root');
    expect(screen.queryByRole('menuitem', { name: labels.endSessions })).toBeNull();
    await user.click(screen.getByRole('menuitem', { name: messages.users.view }));
    const own = await screen.findByRole('dialog', { name: messages.users.detailsTitle });
    expect(within(own).queryByRole('button', { name: labels.endSessions })).toBeNull();
    await user.click(within(own).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Actions for alice' }));
    await user.click(await screen.findByRole('menuitem', { name: messages.users.view }));
    const panel = await screen.findByRole('dialog', { name: messages.users.detailsTitle });
    await user.click(within(panel).getByRole('button', { name: labels.endSessions }));
    expect(await screen.findByRole('dialog', { name: labels.endSessionsTitle })).not.toBeNull();
  });

  it('is not offered to a tenant admin, who may change users but not end their sessions', async () => {
    signedIn = tenantAdmin;
    await renderList();
    const { user, items } = await menuItems('alice');
    expect(items).toContain(messages.users.view);
    expect(items).not.toContain(labels.endSessions);
    await user.click(screen.getByRole('menuitem', { name: messages.users.view }));
    const panel = await screen.findByRole('dialog', { name: messages.users.detailsTitle });
    expect(within(panel).queryByRole('button', { name: labels.endSessions })).toBeNull();
  });
});

describe('Admin Users: resetting a lost second factor', () => {
  const enrolled = aUser({ username: 'erin', twoFactorEnabled: true });
  const notEnrolled = aUser({ username: 'fred', twoFactorEnabled: false });

  it('is offered to the platform operator only for a user with a factor, and asks first', async () => {
    serve([enrolled, notEnrolled]);
    server.use(http.post('/api/auth/users/:id/two-factor/reset', () => done(messages.twoFactor.userReset)));
    await renderList();
    expect((await menuItems('fred')).items).not.toContain(labels.resetTwoFactor);
    await userEvent.setup().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    const { user, items } = await menuItems('erin');
    expect(items.at(-1)).toBe(labels.resetTwoFactor);
    await user.click(screen.getByRole('menuitem', { name: labels.resetTwoFactor }));
    const dialog = await screen.findByRole('dialog', { name: labels.resetTwoFactorTitle });
    expect(within(dialog).getByText(labels.resetTwoFactorConfirm('erin'))).not.toBeNull();
    expect(sentRequests('POST')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: labels.resetTwoFactor }));
    expect(await screen.findByText(messages.twoFactor.userReset)).not.toBeNull();
    expect(sentRequests('POST').map((r) => r.path)).toEqual([`/auth/users/${enrolled.id}/two-factor/reset`]);
  });

  it('is not offered, nor End all sessions, for a user whose role is wider than the operator’s', async () => {
    // A platform help desk: Users UPDATE and Organization CREATE, but not every scope the super administrator holds.
    signedIn = aUser({
      username: 'desk',
      role: 'Help Desk',
      permissions: [permission('users', ['READ', 'UPDATE']), permission('organizations', ['READ', 'CREATE'])],
    });
    const root = aSuperAdmin({
      twoFactorEnabled: true,
      permissions: [permission('users', SCOPES), permission('organizations', SCOPES)],
    });
    serve([root, enrolled]);
    await renderList();
    const wider = await menuItems('root');
    expect(wider.items).not.toContain(labels.endSessions);
    expect(wider.items).not.toContain(labels.resetTwoFactor);
  });
});
