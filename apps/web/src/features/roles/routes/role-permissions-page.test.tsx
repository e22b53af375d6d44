import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { featureSchema, messages, roleSchema, viewOnlyTitle } from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, page, refusal } from '../../../test/responses';
import { aRole } from '../../../test/roles';
import { sentRequests, server } from '../../../test/server';
import { aSuperAdmin, permission } from '../../../test/users';
import { setViewportWidth } from '../../../test/viewport';
import { testFeatures } from '../test-utils';
import { RolePermissionsPage } from './role-permissions-page';

const role = aRole({
  name: 'Recruiter',
  permissions: [
    permission('dashboard', ['READ', 'DELETE']),
    permission('users', ['READ', 'UPDATE']),
    permission('support', ['DELETE']),
  ],
});

beforeEach(() => {
  server.use(
    http.get('/api/auth/features', () => page(featureSchema, testFeatures)),
    http.get('/api/auth/roles/:id', ({ params }) =>
      params.id === role.id ? ok(roleSchema, role) : refusal(404, messages.roles.roleNotFound),
    ),
  );
});

function renderAtPath(path: string, state?: unknown) {
  return renderAt(path, {
    element: <RolePermissionsPage />,
    route: path.startsWith('/dashboard/userpermissions/')
      ? '/dashboard/userpermissions/:roleId'
      : '/dashboard/userpermissions',
    state,
    user: aSuperAdmin(),
  });
}

function rowOf(name: string) {
  return screen.getByText(name).closest('tr')!;
}

describe('view-only role permissions', () => {
  it('shows each feature against View, Create/Edit and Cancel/Delete, all disabled', async () => {
    await renderAtPath(`/dashboard/userpermissions/${role.id}`);
    expect(await screen.findByRole('heading', { name: viewOnlyTitle('Recruiter') })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: messages.roles.commonPermission })).toBeInTheDocument();
    for (const column of ['View', 'Create/Edit', 'Cancel/Delete']) {
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    const users = rowOf('User Management');
    expect(within(users).getByRole('checkbox', { name: 'User Management View' })).toBeChecked();
    expect(within(users).getByRole('checkbox', { name: 'User Management Create/Edit' })).toBeChecked();
    expect(within(users).getByRole('checkbox', { name: 'User Management Cancel/Delete' })).not.toBeChecked();
    expect(within(rowOf('Support')).getByRole('checkbox', { name: 'Support Cancel/Delete' })).toBeChecked();
    for (const box of screen.getAllByRole('checkbox')) expect(box).toBeDisabled();
    expect(screen.getByRole('button', { name: messages.roles.save })).toBeDisabled();
    expect(screen.getByRole('link', { name: messages.roles.backToRoles })).toHaveAttribute(
      'href',
      '/dashboard/userroles',
    );
  });

  it('draws a ticked permission as a check and an unticked one as a dash, with the words for screen readers', async () => {
    await renderAtPath(`/dashboard/userpermissions/${role.id}`);
    await screen.findByRole('heading', { name: viewOnlyTitle('Recruiter') });
    const [, view, createEdit, remove] = within(rowOf('User Management')).getAllByRole('cell');
    for (const allowed of [view!, createEdit!]) {
      expect(allowed.querySelector('[data-testid="CheckIcon"]')).not.toBeNull();
      expect(allowed.textContent).toBe(messages.roles.allowed);
    }
    expect(remove!.querySelector('[data-testid="RemoveIcon"]')).not.toBeNull();
    expect(remove!.querySelector('[data-testid="CheckIcon"]')).toBeNull();
    expect(remove!.textContent).toBe(messages.roles.notAllowed);
    // A legend names the two marks.
    expect(screen.getByTestId('permission-legend').textContent).toBe(
      `${messages.roles.allowed}${messages.roles.notAllowed}`,
    );
  });

  it('marks delete as not available on the Dashboard', async () => {
    await renderAtPath(`/dashboard/userpermissions/${role.id}`);
    await screen.findByRole('heading', { name: viewOnlyTitle('Recruiter') });
    const dashboard = rowOf('Dashboard');
    expect(within(dashboard).getByText(messages.roles.notAvailable)).toBeInTheDocument();
    expect(within(dashboard).queryByRole('checkbox', { name: 'Dashboard Cancel/Delete' })).toBeNull();
  });

  it('lists each module with its marks one under another on a phone, with no table', async () => {
    setViewportWidth(375);
    await renderAtPath(`/dashboard/userpermissions/${role.id}`);
    await screen.findByRole('heading', { name: viewOnlyTitle('Recruiter') });
    expect(screen.queryByRole('table')).toBeNull();
    const users = screen.getByText('User Management').closest('li')!;
    expect(within(users).getByRole('checkbox', { name: 'User Management View' })).toBeChecked();
    expect(within(users).getByRole('checkbox', { name: 'User Management Cancel/Delete' })).not.toBeChecked();
    expect(within(users).getByText('Cancel/Delete')).toBeInTheDocument();
    const dashboard = screen.getByText('Dashboard').closest('li')!;
    expect(within(dashboard).getByText(messages.roles.notAvailable)).toBeInTheDocument();
  });

  it('takes the role id from navigation state too', async () => {
    await renderAtPath('/dashboard/userpermissions', { roleId: role.id });
    expect(await screen.findByRole('heading', { name: viewOnlyTitle('Recruiter') })).toBeInTheDocument();
  });

  it('says so when the role cannot be loaded', async () => {
    await renderAtPath('/dashboard/userpermissions/99999999-9999-4999-8999-999999999999');
    expect(await screen.findByText(messages.roles.notFound)).toBeInTheDocument();
  });

  it('says so when no role is named', async () => {
    await renderAtPath('/dashboard/userpermissions');
    expect(await screen.findByText(messages.roles.notFound)).toBeInTheDocument();
    expect(sentRequests('GET', /^\/auth\/roles\//)).toHaveLength(0);
  });
});
