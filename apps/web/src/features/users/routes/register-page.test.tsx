import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  messages,
  organizationSummarySchema,
  roleSchema,
  userSchema,
  type OrganizationSummary,
  type SessionUser,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, page } from '../../../test/responses';
import { aRole, aSystemRole } from '../../../test/roles';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin, aUser, permission } from '../../../test/users';
import { RegisterPage } from './register-page';

const ORG_A: OrganizationSummary = {
  id: 'aaaaaaaa-1111-4111-8111-111111111111',
  name: 'Acme',
  isPlatform: false,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const PLATFORM: OrganizationSummary = {
  id: 'bbbbbbbb-1111-4111-8111-111111111111',
  name: 'Platform',
  isPlatform: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const recruiter = aRole({ name: 'Recruiter', organizationId: ORG_A.id, organizationName: ORG_A.name });
const roles = [aSystemRole('super_admin'), aSystemRole('admin'), recruiter];

let signedIn: SessionUser;

beforeEach(() => {
  signedIn = aSuperAdmin();
  server.use(
    http.get('/api/auth/organizations', ({ request }) => {
      const search = (new URL(request.url).searchParams.get('search') ?? '').toLowerCase();
      const data = [ORG_A, PLATFORM].filter((o) => o.name.toLowerCase().includes(search));
      return page(organizationSummarySchema, data, { pageSize: 100 });
    }),
    http.get('/api/auth/roles', () => page(roleSchema, roles, { pageSize: 100 })),
  );
});

function renderRegister() {
  return renderAt('/dashboard/register', {
    element: <RegisterPage />,
    others: ['/dashboard/usermanagement'],
    user: signedIn,
  });
}

describe('Register User', () => {
  it('lets super_admin pick an organization and any of its roles, then sends the invite', async () => {
    server.use(
      http.post('/api/auth/auth-session/register', () =>
        ok(userSchema, aUser({ email: 'rec@acme.test' }), { status: 201 }),
      ),
    );
    signedIn = aSuperAdmin({ client: 'Platform' });
    await renderRegister();
    const user = userEvent.setup();
    const company = () =>
      (screen.getByRole('textbox', { name: messages.users.companyLabel }) as HTMLInputElement).value;
    // Not the super administrator's own company: nothing until an organization is chosen.
    expect(company()).toBe('');
    await user.click(await screen.findByRole('combobox', { name: messages.users.organizationLabel }));
    await user.click(await screen.findByRole('option', { name: 'Acme' }));
    expect(company()).toBe('Acme');
    await waitFor(() =>
      expect(sentRequests('GET', '/auth/roles').map((r) => r.query)).toContainEqual({
        page: '1',
        pageSize: '100',
        organizationId: ORG_A.id,
      }),
    );
    await user.click(screen.getByRole('combobox', { name: messages.users.roleColumn }));
    const listbox = await screen.findByRole('listbox');
    // super_admin belongs to the platform organization only.
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['admin', 'Recruiter']);
    await user.click(within(listbox).getByRole('option', { name: 'Recruiter' }));
    expect(
      (screen.getByRole('textbox', { name: messages.users.companyLabel }) as HTMLInputElement).value,
    ).toBe('Acme');
    await user.type(screen.getByRole('textbox', { name: messages.users.usernameLabel }), 'rec.one');
    await user.type(screen.getByRole('textbox', { name: messages.users.emailLabel }), 'rec@acme.test');
    await user.type(screen.getByRole('textbox', { name: messages.users.contactLabel }), '9876543210');
    await user.click(screen.getByRole('button', { name: messages.users.sendInvitation }));
    expect(await screen.findByText(`${messages.users.inviteSent}: rec@acme.test`)).not.toBeNull();
    expect(lastRequest('POST', '/auth/auth-session/register').body).toEqual({
      username: 'rec.one',
      email: 'rec@acme.test',
      mobileNo: '9876543210',
      client: 'Acme',
      organizationId: ORG_A.id,
      roleId: recruiter.id,
    });
  });

  it('uses the own organization for a tenant admin and checks the rules before sending', async () => {
    signedIn = aUser({
      client: 'Acme',
      organizationId: ORG_A.id,
      role: 'admin',
      permissions: [permission('users', ['READ', 'CREATE'])],
    });
    await renderRegister();
    const user = userEvent.setup();
    await waitFor(() => expect(sentRequests('GET', '/auth/roles')).not.toHaveLength(0));
    expect(sentRequests('GET', '/auth/organizations')).toHaveLength(0);
    await user.type(screen.getByRole('textbox', { name: messages.users.emailLabel }), 'bad');
    await user.click(screen.getByRole('button', { name: messages.users.sendInvitation }));
    expect(await screen.findByText(messages.users.invalidEmail)).not.toBeNull();
    await user.clear(screen.getByRole('textbox', { name: messages.users.emailLabel }));
    await user.type(screen.getByRole('textbox', { name: messages.users.emailLabel }), 'ok@acme.test');
    await user.type(screen.getByRole('textbox', { name: messages.users.usernameLabel }), 'ok.user');
    await user.type(screen.getByRole('textbox', { name: messages.users.contactLabel }), '9876543210');
    await user.click(screen.getByRole('button', { name: messages.users.sendInvitation }));
    expect(await screen.findByText(messages.users.roleRequired)).not.toBeNull();
    expect(sentRequests('POST')).toHaveLength(0);
  });
});
