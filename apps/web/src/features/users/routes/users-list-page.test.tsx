import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { INTERVIEW_BOT_PRODUCT_NAME, messages, type User } from '@portal/shared';
import { labels } from '../labels';
import { entry, makeUser, superAdmin } from '../test-utils';
import { renderAt } from '../../../test/render-at';
import { UsersListPage } from './users-list-page';

const apiMock = vi.hoisted(() => ({
  get: vi.fn(),
  post: vi.fn(),
  put: vi.fn(),
  delete: vi.fn(),
  download: vi.fn(),
}));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

const active = makeUser({ username: 'alice', email: 'alice@acme.test', fullName: 'Alice A' });
const inactive = makeUser({ username: 'bob', isActive: false, enabled: false });
const pending = makeUser({ username: 'carol', inviteStatus: 'pending', client: 'Carol Co' });
const expired = makeUser({ username: 'dave', inviteStatus: 'expired' });

function serve(all: User[]) {
  apiMock.get.mockImplementation(async (path: string, options?: { params?: Record<string, unknown> }) => {
    expect(path).toBe('/auth/users');
    const p = options?.params ?? {};
    const search = String(p.search ?? '').toLowerCase();
    const matching = all.filter((u) => u.username.includes(search) || u.email.includes(search));
    const page = Number(p.page);
    const pageSize = Number(p.pageSize);
    return {
      success: true,
      data: matching.slice((page - 1) * pageSize, page * pageSize),
      meta: { page, pageSize, total: matching.length },
    };
  });
}

function renderList() {
  return renderAt(<UsersListPage />, {
    route: '/dashboard/usermanagement',
    path: '/dashboard/usermanagement',
    others: ['/dashboard/userroles', '/dashboard/inviteuser'],
  });
}

function lastParams(): Record<string, unknown> {
  return apiMock.get.mock.calls.at(-1)![1].params;
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
  vi.clearAllMocks();
  auth.user = superAdmin;
  serve([active, inactive, pending, expired]);
});

describe('Admin Users', () => {
  it('asks the server for admin users, 10 per page, and shows the SPEC columns', async () => {
    renderList();
    expect(await screen.findByRole('heading', { name: messages.users.title })).not.toBeNull();
    await screen.findByText('alice');
    expect(lastParams()).toMatchObject({ page: 1, pageSize: 10, role: 'admin' });
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
    renderList();
    await screen.findByText('alice');
    await userEvent.setup().type(screen.getByRole('textbox', { name: messages.users.search }), 'car');
    await waitFor(() => expect(lastParams()).toMatchObject({ search: 'car', page: 1 }));
    await waitFor(() => expect(screen.queryByText('alice')).toBeNull());
    expect(screen.getByText('carol')).not.toBeNull();
  });

  it('pages through the server’s results and changes the page size', async () => {
    serve(Array.from({ length: 30 }, (_, i) => makeUser({ username: `bulk${String(i).padStart(2, '0')}` })));
    renderList();
    await screen.findByText('bulk00');
    expect(screen.getByText('1–10 of 30')).not.toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /next page/i }));
    await screen.findByText('bulk10');
    expect(lastParams()).toMatchObject({ page: 2, pageSize: 10 });
    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    await user.click(await screen.findByRole('option', { name: '25' }));
    await waitFor(() => expect(lastParams()).toMatchObject({ page: 1, pageSize: 25 }));
    await screen.findByText('bulk24');
  });

  it('shows the empty state', async () => {
    serve([]);
    renderList();
    expect(await screen.findByText(messages.users.empty)).not.toBeNull();
    // The empty text alone: no "0–0 of 0" pager under it.
    expect(screen.queryByText(/of 0/)).toBeNull();
    expect(screen.queryByRole('combobox', { name: /Rows per page/ })).toBeNull();
  });

  it('offers only View to a user who may read but not change users', async () => {
    auth.user = makeUser({
      role: { id: 'r', name: 'Reader', isSystem: false, permissions: [entry('users', ['READ'])] },
    });
    renderList();
    const { items } = await menuItems('carol');
    expect(items).toEqual([messages.users.view]);
    expect(screen.queryByRole('button', { name: messages.users.inviteAdmin })).toBeNull();
    expect(screen.queryByRole('button', { name: messages.common.exportToExcel })).toBeNull();
  });

  it('offers Edit, View, Deactivate, Resend invite and End all sessions to the platform operator', async () => {
    renderList();
    expect((await menuItems('carol')).items).toEqual([
      messages.users.edit,
      messages.users.view,
      messages.users.deactivate,
      messages.users.resendInvite,
      labels.endSessions,
    ]);
  });

  it('deactivates after confirmation and says so', async () => {
    apiMock.put.mockResolvedValue({ success: true, data: { ...active, isActive: false, enabled: false } });
    renderList();
    const { user } = await menuItems('alice');
    await user.click(screen.getByRole('menuitem', { name: messages.users.deactivate }));
    const dialog = await screen.findByRole('dialog', { name: messages.users.deactivateTitle });
    expect(apiMock.put).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: messages.users.deactivate }));
    await waitFor(() => expect(apiMock.put).toHaveBeenCalledWith(`/auth/users/${active.id}/deactivate`));
    expect(await screen.findByText(messages.users.deactivated)).not.toBeNull();
  });

  it('activates after confirmation, and shows the server’s message when it fails', async () => {
    const { ApiError } = await import('../../../lib/api-client');
    apiMock.put.mockRejectedValue(new ApiError(404, 'User not found', { message: 'User not found' }));
    renderList();
    const { user } = await menuItems('bob');
    await user.click(screen.getByRole('menuitem', { name: messages.users.activate }));
    const dialog = await screen.findByRole('dialog', { name: messages.users.activateTitle });
    await user.click(within(dialog).getByRole('button', { name: messages.users.activate }));
    await waitFor(() => expect(apiMock.put).toHaveBeenCalledWith(`/auth/users/${inactive.id}/activate`));
    expect(await screen.findByText('User not found')).not.toBeNull();
  });

  it('resends an invitation', async () => {
    apiMock.post.mockResolvedValue({ success: true, data: pending, message: messages.users.inviteResent });
    renderList();
    const { user } = await menuItems('carol');
    await user.click(screen.getByRole('menuitem', { name: messages.users.resendInvite }));
    await waitFor(() => expect(apiMock.post).toHaveBeenCalledWith(`/auth/users/${pending.id}/resend-invite`));
    expect(await screen.findByText(messages.users.inviteResent)).not.toBeNull();
  });

  it('shows the details panel, whose Edit Admin button opens the edit form', async () => {
    const { router } = renderList();
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
    apiMock.download.mockResolvedValue(undefined);
    renderList();
    await screen.findByText('alice');
    await userEvent.setup().click(screen.getByRole('button', { name: messages.common.exportToExcel }));
    expect(apiMock.download).toHaveBeenCalledWith(
      '/auth/users/export',
      { format: 'xlsx', role: 'admin', search: undefined },
      'admin-users.xlsx',
    );
  });

  it('goes to the roles list from the Roles tab and to the invite form from Invite Admin', async () => {
    const { router } = renderList();
    await screen.findByText('alice');
    await userEvent.setup().click(screen.getByRole('tab', { name: messages.users.rolesTab }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/userroles'));
  });
});

describe('Admin Users: ending a user’s sessions', () => {
  /** Manages users in their own organization, but is not the platform operator. */
  const tenantAdmin = makeUser({
    username: 'tenant',
    role: {
      id: 'r-admin',
      name: 'admin',
      isSystem: true,
      permissions: [entry('users', ['READ', 'UPDATE']), entry('organizations', ['READ'])],
    },
  });

  it('asks first, then ends every session of the user and says so', async () => {
    apiMock.post.mockResolvedValue({ success: true, data: { ended: 2 } });
    renderList();
    const { user } = await menuItems('alice');
    await user.click(screen.getByRole('menuitem', { name: labels.endSessions }));
    const dialog = await screen.findByRole('dialog', { name: labels.endSessionsTitle });
    expect(within(dialog).getByText(labels.endSessionsConfirm('alice'))).not.toBeNull();
    expect(apiMock.post).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: labels.endSessions }));
    await waitFor(() => expect(apiMock.post).toHaveBeenCalledWith(`/auth/users/${active.id}/end-sessions`));
    expect(await screen.findByText(messages.sessions.userSessionsEnded)).not.toBeNull();
  });

  it('offers it in the details panel, but not for the operator’s own account', async () => {
    serve([active, superAdmin]);
    renderList();
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
    auth.user = tenantAdmin;
    renderList();
    const { user, items } = await menuItems('alice');
    expect(items).toContain(messages.users.view);
    expect(items).not.toContain(labels.endSessions);
    await user.click(screen.getByRole('menuitem', { name: messages.users.view }));
    const panel = await screen.findByRole('dialog', { name: messages.users.detailsTitle });
    expect(within(panel).queryByRole('button', { name: labels.endSessions })).toBeNull();
  });
});

describe('Admin Users: resetting a lost second factor', () => {
  const enrolled = makeUser({ username: 'erin', twoFactorEnabled: true });
  const notEnrolled = makeUser({ username: 'fred', twoFactorEnabled: false });

  it('is offered to the platform operator only for a user with a factor, and asks first', async () => {
    serve([enrolled, notEnrolled]);
    apiMock.post.mockResolvedValue({ success: true, message: messages.twoFactor.userReset });
    renderList();
    expect((await menuItems('fred')).items).not.toContain(labels.resetTwoFactor);
    await userEvent.setup().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    const { user, items } = await menuItems('erin');
    expect(items.at(-1)).toBe(labels.resetTwoFactor);
    await user.click(screen.getByRole('menuitem', { name: labels.resetTwoFactor }));
    const dialog = await screen.findByRole('dialog', { name: labels.resetTwoFactorTitle });
    expect(within(dialog).getByText(labels.resetTwoFactorConfirm('erin'))).not.toBeNull();
    expect(apiMock.post).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: labels.resetTwoFactor }));
    await waitFor(() =>
      expect(apiMock.post).toHaveBeenCalledWith(`/auth/users/${enrolled.id}/two-factor/reset`),
    );
    expect(await screen.findByText(messages.twoFactor.userReset)).not.toBeNull();
  });

  it('is not offered, nor End all sessions, for a user whose role is wider than the operator’s', async () => {
    // A platform help desk: Users UPDATE and Organization CREATE, but not every scope the super administrator holds.
    auth.user = makeUser({
      username: 'desk',
      role: {
        id: 'r-desk',
        name: 'Help Desk',
        isSystem: false,
        permissions: [entry('users', ['READ', 'UPDATE']), entry('organizations', ['READ', 'CREATE'])],
      },
    });
    const everything = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT'] as const;
    const root = {
      ...superAdmin,
      twoFactorEnabled: true,
      role: {
        ...superAdmin.role,
        permissions: [entry('users', [...everything]), entry('organizations', [...everything])],
      },
    };
    serve([root, enrolled]);
    renderList();
    const wider = await menuItems('root');
    expect(wider.items).not.toContain(labels.endSessions);
    expect(wider.items).not.toContain(labels.resetTwoFactor);
  });
});
