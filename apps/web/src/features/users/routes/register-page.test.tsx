import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, type User } from '@portal/shared';
import { entry, makeUser, superAdmin } from '../test-utils';
import { renderAt } from '../../../test/render-at';
import { RegisterPage } from './register-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

const ORG_A = { id: 'aaaaaaaa-1111-4111-8111-111111111111', name: 'Acme', isPlatform: false, createdAt: '' };
const PLATFORM = {
  id: 'bbbbbbbb-1111-4111-8111-111111111111',
  name: 'Platform',
  isPlatform: true,
  createdAt: '',
};
const roles = [
  { id: 'r-super', name: 'super_admin', isSystem: true, organizationId: null },
  { id: 'r-admin', name: 'admin', isSystem: true, organizationId: null },
  { id: 'r-rec', name: 'Recruiter', isSystem: false, organizationId: ORG_A.id },
];

beforeEach(() => {
  vi.clearAllMocks();
  auth.user = superAdmin;
  apiMock.get.mockImplementation(async (path: string, options?: { params?: Record<string, unknown> }) => {
    if (path === '/auth/organizations') {
      const search = String(options?.params?.search ?? '').toLowerCase();
      const data = [ORG_A, PLATFORM].filter((o) => o.name.toLowerCase().includes(search));
      return { success: true, data, meta: { page: 1, pageSize: 100, total: data.length } };
    }
    if (path === '/auth/roles')
      return { success: true, data: roles, meta: { page: 1, pageSize: 100, total: 3 } };
    throw new Error(`unexpected GET ${path}`);
  });
});

function renderRegister() {
  return renderAt(<RegisterPage />, {
    route: '/dashboard/register',
    path: '/dashboard/register',
    others: ['/dashboard/usermanagement'],
  });
}

describe('Register User', () => {
  it('lets super_admin pick an organization and any of its roles, then sends the invite', async () => {
    apiMock.post.mockResolvedValue({ success: true, data: makeUser({ email: 'rec@acme.test' }) });
    auth.user = { ...superAdmin, client: 'Platform' };
    renderRegister();
    const user = userEvent.setup();
    const company = () =>
      (screen.getByRole('textbox', { name: messages.users.companyLabel }) as HTMLInputElement).value;
    // Not the super administrator's own company: nothing until an organization is chosen.
    expect(company()).toBe('');
    await user.click(await screen.findByRole('combobox', { name: messages.users.organizationLabel }));
    await user.click(await screen.findByRole('option', { name: 'Acme' }));
    expect(company()).toBe('Acme');
    await waitFor(() =>
      expect(apiMock.get).toHaveBeenCalledWith('/auth/roles', {
        params: { page: 1, pageSize: 100, organizationId: ORG_A.id },
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
    await waitFor(() =>
      expect(apiMock.post).toHaveBeenCalledWith('/auth/auth-session/register', {
        username: 'rec.one',
        email: 'rec@acme.test',
        mobileNo: '9876543210',
        client: 'Acme',
        organizationId: ORG_A.id,
        roleId: 'r-rec',
      }),
    );
    expect(await screen.findByText(`${messages.users.inviteSent}: rec@acme.test`)).not.toBeNull();
  });

  it('uses the own organization for a tenant admin and checks the rules before sending', async () => {
    auth.user = makeUser({
      client: 'Acme',
      organizationId: ORG_A.id,
      role: {
        id: 'r-admin',
        name: 'admin',
        isSystem: true,
        permissions: [entry('users', ['READ', 'CREATE'])],
      },
    });
    renderRegister();
    const user = userEvent.setup();
    await waitFor(() => expect(apiMock.get).toHaveBeenCalledWith('/auth/roles', expect.anything()));
    expect(apiMock.get).not.toHaveBeenCalledWith('/auth/organizations', expect.anything());
    await user.type(screen.getByRole('textbox', { name: messages.users.emailLabel }), 'bad');
    await user.click(screen.getByRole('button', { name: messages.users.sendInvitation }));
    expect(await screen.findByText(messages.users.invalidEmail)).not.toBeNull();
    await user.clear(screen.getByRole('textbox', { name: messages.users.emailLabel }));
    await user.type(screen.getByRole('textbox', { name: messages.users.emailLabel }), 'ok@acme.test');
    await user.type(screen.getByRole('textbox', { name: messages.users.usernameLabel }), 'ok.user');
    await user.type(screen.getByRole('textbox', { name: messages.users.contactLabel }), '9876543210');
    await user.click(screen.getByRole('button', { name: messages.users.sendInvitation }));
    expect(await screen.findByText(messages.users.roleRequired)).not.toBeNull();
    expect(apiMock.post).not.toHaveBeenCalled();
  });
});
