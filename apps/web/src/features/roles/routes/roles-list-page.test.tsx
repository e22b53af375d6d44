import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages, roleInUse, roleSchema, type Role, type SessionUser } from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { done, ok, page, refusal } from '../../../test/responses';
import { aRole, aSystemRole } from '../../../test/roles';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin, aUser, permission } from '../../../test/users';
import { labels } from '../labels';
import { roleManager } from '../test-utils';
import { RolesListPage } from './roles-list-page';

const systemRole = aSystemRole('admin', {
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  permissions: [permission('users', ['READ', 'CREATE'])],
});
const customRole = aRole({ id: 'temp-ab12', name: 'Recruiter', permissions: [] });

function serve(roles: Role[]) {
  server.use(
    http.get('/api/auth/roles', ({ request }) => {
      const search = (new URL(request.url).searchParams.get('search') ?? '').toLowerCase();
      const data = roles.filter((r) => r.name.toLowerCase().includes(search) || r.id.includes(search));
      return page(roleSchema, data);
    }),
  );
}

let signedIn: SessionUser;

function renderList() {
  return renderAt('/dashboard/userroles', {
    element: <RolesListPage />,
    others: ['/dashboard/addrole', '/dashboard/userpermissions/:roleId', '/dashboard/usermanagement'],
    user: signedIn,
  });
}

async function openMenu(roleName: string) {
  const user = userEvent.setup();
  await user.click(
    await screen.findByRole('button', { name: `${messages.roles.actionColumn} for ${roleName}` }),
  );
  const menu = await screen.findByRole('menu');
  return {
    user,
    items: within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent),
  };
}

beforeEach(() => {
  signedIn = aSuperAdmin();
  serve([systemRole, customRole]);
});

describe('roles list', () => {
  it('shows id, name, status and the View Permissions link for each role', async () => {
    await renderList();
    await screen.findByText('Recruiter');
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(3);
    // A UUID shows short; the whole id stays in the row for screen readers and in-page search.
    expect(within(rows[1]!).getByTestId('short-id').textContent).toBe('#aaaaaaaa…');
    expect(within(rows[1]!).getByText(`#${systemRole.id}`)).toBeInTheDocument();
    expect(within(rows[1]!).getByText(messages.roles.system)).toBeInTheDocument();
    expect(within(rows[2]!).getByText('#TEMPAB12')).toBeInTheDocument();
    expect(within(rows[2]!).getByText(messages.roles.custom)).toBeInTheDocument();
    for (const column of ['Role ID', 'Role', 'Status', 'Permissions', 'Action']) {
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
  });

  it('shows the super administrator whose each custom role is, and a tenant no such column', async () => {
    const { unmount } = await renderList();
    const recruiter = (await screen.findByText('Recruiter')).closest('tr')!;
    expect(screen.getByRole('columnheader', { name: messages.users.organizationLabel })).toBeInTheDocument();
    expect(within(recruiter).getByText('Acme Hiring')).toBeInTheDocument();
    expect(
      within(screen.getByText('admin').closest('tr')!).getByText(labels.allOrganizations),
    ).toBeInTheDocument();
    unmount();

    // The super administrator's role is the platform's alone.
    serve([aSystemRole('super_admin', { id: 'aaaaaaaa-0000-4000-8000-000000000003' })]);
    const second = await renderList();
    const root = (await screen.findByText('super_admin')).closest('tr')!;
    expect(within(root).getByText(labels.platformOnly)).toBeInTheDocument();
    second.unmount();
    serve([systemRole, customRole]);

    signedIn = roleManager;
    await renderList();
    await screen.findByText('Recruiter');
    expect(screen.queryByRole('columnheader', { name: messages.users.organizationLabel })).toBeNull();
    expect(screen.queryByText('Acme Hiring')).toBeNull();
  });

  it('shows only the empty text, without a pager, when there is no role', async () => {
    serve([]);
    await renderList();
    expect(await screen.findByText(messages.roles.empty)).toBeInTheDocument();
    expect(screen.queryByText(/of 0/)).toBeNull();
    expect(screen.queryByRole('button', { name: /next page/i })).toBeNull();
  });

  it('opens the permissions panel with the scopes, or the empty text', async () => {
    const user = userEvent.setup();
    await renderList();
    await user.click(await screen.findByRole('button', { name: `${messages.roles.viewPermissions}: admin` }));
    const panel = await screen.findByRole('dialog');
    expect(within(panel).getByText('User Management')).toBeInTheDocument();
    expect(within(panel).getByText('View')).toBeInTheDocument();
    expect(within(panel).getByText('Create')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: `${messages.roles.viewPermissions}: Recruiter` }));
    expect(await screen.findByText(messages.roles.noPermissions)).toBeInTheDocument();
  });

  it('marks a role whose users must sign in with two-factor sign-in, in its row and its panel', async () => {
    serve([systemRole, aRole({ id: 'temp-cd34', name: 'Finance', requireTwoFactor: true })]);
    const user = userEvent.setup();
    await renderList();
    const finance = (await screen.findByText('Finance')).closest('tr')!;
    expect(within(finance).getByText(labels.twoFactorRequired)).toBeInTheDocument();
    expect(within(screen.getByText('admin').closest('tr')!).queryByText(labels.twoFactorRequired)).toBeNull();
    await user.click(screen.getByRole('button', { name: `${messages.roles.viewPermissions}: Finance` }));
    const panel = await screen.findByRole('dialog');
    expect(within(panel).getByText(labels.twoFactorRequiredLong)).toBeInTheDocument();
  });

  it('offers a system role only View, and to the platform operator its two-factor policy', async () => {
    await renderList();
    expect((await openMenu('admin')).items).toEqual(['View', labels.requireTwoFactor]);
  });

  it('offers View, Edit and Delete for a custom role when the user holds the scopes', async () => {
    signedIn = roleManager;
    await renderList();
    const { items } = await openMenu('Recruiter');
    expect(items).toEqual(['View', 'Edit', 'Delete']);
  });

  it("sets a role's two-factor policy through its own route, and never the super administrator's", async () => {
    const superRole = aSystemRole('super_admin', { id: 'aaaaaaaa-0000-4000-8000-000000000002' });
    serve([systemRole, superRole, aRole({ id: 'temp-cd34', name: 'Finance', requireTwoFactor: true })]);
    server.use(
      http.put('/api/auth/roles/:id/two-factor', () =>
        ok(
          roleSchema,
          { ...systemRole, requireTwoFactor: true },
          { message: messages.twoFactor.roleRequired },
        ),
      ),
    );
    await renderList();
    expect((await openMenu('super_admin')).items).toEqual(['View']);
    await userEvent.keyboard('{Escape}');
    const finance = await openMenu('Finance');
    expect(finance.items).toContain(labels.stopRequiringTwoFactor);
    await userEvent.keyboard('{Escape}');
    const admin = await openMenu('admin');
    await admin.user.click(screen.getByRole('menuitem', { name: labels.requireTwoFactor }));
    expect(await screen.findByText(messages.twoFactor.roleRequired)).toBeInTheDocument();
    expect(sentRequests('PUT').map((r) => r.path)).toEqual([`/auth/roles/${systemRole.id}/two-factor`]);
    expect(lastRequest('PUT', `/auth/roles/${systemRole.id}/two-factor`).body).toEqual({ required: true });
  });

  it('does not offer the two-factor policy to a tenant', async () => {
    signedIn = roleManager;
    await renderList();
    expect((await openMenu('admin')).items).toEqual(['View']);
  });

  it('hides Add Role, Edit and Delete from a user who may only read roles', async () => {
    signedIn = aUser({ role: 'Reader', permissions: [permission('roles', ['READ'])] });
    await renderList();
    const { items } = await openMenu('Recruiter');
    expect(items).toEqual(['View']);
    expect(screen.queryByRole('button', { name: messages.roles.addRole })).toBeNull();
  });

  it('Edit opens the editor with isEditing and roleId; View opens the view-only screen', async () => {
    const { router } = await renderList();
    const { user } = await openMenu('Recruiter');
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    expect(router.state.location.pathname).toBe('/dashboard/addrole');
    expect(router.state.location.state).toEqual({ isEditing: true, roleId: customRole.id });
  });

  it('View opens the view-only screen of the role', async () => {
    const { router } = await renderList();
    const { user } = await openMenu('admin');
    await user.click(screen.getByRole('menuitem', { name: 'View' }));
    expect(router.state.location.pathname).toBe(`/dashboard/userpermissions/${systemRole.id}`);
  });

  it('Add Role opens the editor in add mode', async () => {
    const user = userEvent.setup();
    const { router } = await renderList();
    await user.click(await screen.findByRole('button', { name: messages.roles.addRole }));
    expect(router.state.location.pathname).toBe('/dashboard/addrole');
  });

  it('asks before deleting, then deletes and says so', async () => {
    server.use(http.delete('/api/auth/roles/:id', () => done(messages.roles.deleted)));
    await renderList();
    const { user } = await openMenu('Recruiter');
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(messages.roles.deleteConfirm)).toBeInTheDocument();
    expect(sentRequests('DELETE')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(messages.roles.deleted)).toBeInTheDocument();
    expect(sentRequests('DELETE').map((r) => r.path)).toEqual([`/auth/roles/${customRole.id}`]);
  });

  it('shows the server’s reason when a delete is refused', async () => {
    server.use(http.delete('/api/auth/roles/:id', () => refusal(409, roleInUse(2))));
    await renderList();
    const { user } = await openMenu('Recruiter');
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(roleInUse(2))).toBeInTheDocument();
  });

  it('searches on the server by name or id and shows the empty state', async () => {
    const user = userEvent.setup();
    signedIn = roleManager;
    await renderList();
    await screen.findByText('Recruiter');
    await user.type(screen.getByRole('textbox', { name: messages.roles.search }), 'nobody');
    expect(await screen.findByText(messages.roles.empty)).toBeInTheDocument();
    expect(lastRequest('GET', '/auth/roles').query).toEqual({ page: '1', pageSize: '10', search: 'nobody' });
  });
});
