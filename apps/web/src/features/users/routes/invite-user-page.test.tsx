import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, storageKeys, type User } from '@portal/shared';
import { entry, makeUser } from '../test-utils';
import { renderAt } from '../../../test/render-at';
import { InviteUserPage } from './invite-user-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));

/** A tenant admin, holding User Management, unless a test signs in someone narrower. */
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

const ADMIN_ROLE = {
  id: 'aaaaaaaa-0000-4000-8000-000000000002',
  name: 'ADMIN',
  isSystem: true,
  organizationId: null,
};
const editing = makeUser({
  username: 'edit.me',
  email: 'edit.me@acme.test',
  mobileNo: '9000000000',
  client: 'Old Co',
  role: {
    id: 'role-admin',
    name: 'admin',
    isSystem: true,
    permissions: [entry('users', ['READ', 'CREATE', 'UPDATE'])],
  },
});

function serve(options: { roles?: unknown[]; user?: User | null } = {}) {
  apiMock.get.mockImplementation(async (path: string) => {
    if (path === '/auth/roles') {
      const data = options.roles ?? [ADMIN_ROLE];
      return { success: true, data, meta: { page: 1, pageSize: 100, total: data.length } };
    }
    if (path === `/auth/users/${editing.id}` && options.user !== null)
      return { success: true, data: editing };
    throw new Error(`unexpected GET ${path}`);
  });
}

function renderForm(path = '/dashboard/inviteuser') {
  return renderAt(<InviteUserPage />, {
    route: '/dashboard/inviteuser',
    path,
    others: ['/dashboard/subscription', '/dashboard/usermanagement'],
  });
}

async function fill(values: Partial<Record<'username' | 'email' | 'mobile' | 'company', string>>) {
  const user = userEvent.setup();
  const fields = {
    username: messages.users.usernameLabel,
    email: messages.users.emailLabel,
    mobile: messages.users.contactLabel,
    company: messages.users.companyLabel,
  } as const;
  for (const [key, label] of Object.entries(fields)) {
    const value = values[key as keyof typeof fields];
    if (value === undefined) continue;
    const input = screen.getByRole('textbox', { name: label });
    await user.clear(input);
    if (value) await user.type(input, value);
  }
  return user;
}

beforeEach(() => {
  vi.clearAllMocks();
  auth.user = makeUser({
    role: {
      id: 'role-admin',
      name: 'admin',
      isSystem: true,
      permissions: [entry('users', ['READ', 'CREATE', 'UPDATE'])],
    },
  });
  sessionStorage.clear();
  serve();
});

describe('Invite Admin', () => {
  it('shows the form with the +91 prefix and the create button', async () => {
    renderForm();
    expect(await screen.findByRole('heading', { name: messages.users.addTitle })).not.toBeNull();
    expect(screen.getByText('+91')).not.toBeNull();
    expect(screen.getByRole('button', { name: messages.users.continueToSubscription })).not.toBeNull();
    expect(screen.getByRole('link', { name: messages.users.backToUserManagement })).not.toBeNull();
  });

  it('reports one broken rule at a time, in the order the form checks them', async () => {
    renderForm();
    await screen.findByRole('heading', { name: messages.users.addTitle });
    await waitFor(() => expect(apiMock.get).toHaveBeenCalledWith('/auth/roles', expect.anything()));
    const submit = () => screen.getByRole('button', { name: messages.users.continueToSubscription });
    const steps: [Parameters<typeof fill>[0], string][] = [
      [{ email: 'nope', username: 'x', mobile: '12', company: '' }, messages.users.invalidEmail],
      [{ email: 'new@acme.test' }, messages.users.invalidUsername],
      [{ username: 'new.admin' }, messages.users.invalidMobile],
      [{ mobile: '9876543210' }, messages.users.companyRequired],
    ];
    for (const [values, message] of steps) {
      const user = await fill(values);
      await user.click(submit());
      expect(await screen.findByText(message)).not.toBeNull();
    }
    expect(sessionStorage.getItem(storageKeys.pendingUserData)).toBeNull();
  });

  it('keeps the data as pendingUserData (no password) and goes to the subscription screen', async () => {
    const { router } = renderForm();
    await waitFor(() => expect(apiMock.get).toHaveBeenCalled());
    const user = await fill({
      username: 'new.admin',
      email: 'New.Admin@Acme.test',
      mobile: '9876543210',
      company: 'Acme Hiring',
    });
    await user.click(screen.getByRole('button', { name: messages.users.continueToSubscription }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/subscription'));
    const stored = JSON.parse(sessionStorage.getItem(storageKeys.pendingUserData)!);
    expect(stored).toEqual({
      username: 'new.admin',
      email: 'new.admin@acme.test',
      mobileNo: '9876543210',
      client: 'Acme Hiring',
      organizationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      roleId: ADMIN_ROLE.id,
      isSubscription: false,
      isActive: true,
      createAsAdmin: true,
    });
    expect(router.state.location.search).toBe(`?organizationId=${stored.organizationId}`);
    expect(apiMock.post).not.toHaveBeenCalled();
  });

  it('says so when no role is named admin, and refuses to submit', async () => {
    serve({ roles: [{ id: 'x', name: 'Recruiter', isSystem: false, organizationId: null }] });
    renderForm();
    expect(await screen.findByText(messages.users.adminRoleNotFound)).not.toBeNull();
    const user = await fill({
      username: 'new.admin',
      email: 'a@acme.test',
      mobile: '9876543210',
      company: 'A',
    });
    await user.click(screen.getByRole('button', { name: messages.users.continueToSubscription }));
    expect(await screen.findByText(messages.users.adminRoleIdMissing)).not.toBeNull();
    expect(sessionStorage.getItem(storageKeys.pendingUserData)).toBeNull();
  });
});

describe('Edit User', () => {
  it('loads the user, locks the email, saves with PUT and returns to the list after 1.5 s', async () => {
    apiMock.put.mockResolvedValue({ success: true, data: { ...editing, client: 'New Co' } });
    const { router } = renderForm(`/dashboard/inviteuser?edit=${editing.id}`);
    expect(await screen.findByRole('heading', { name: messages.users.editTitle })).not.toBeNull();
    const email = (await screen.findByRole('textbox', {
      name: messages.users.emailLabel,
    })) as HTMLInputElement;
    await waitFor(() => expect(email.value).toBe('edit.me@acme.test'));
    expect(email.disabled).toBe(true);
    expect(screen.getByText(messages.users.emailLocked)).not.toBeNull();
    const user = await fill({ company: 'New Co' });
    await user.click(screen.getByRole('button', { name: messages.users.updateUser }));
    await waitFor(() =>
      expect(apiMock.put).toHaveBeenCalledWith(`/auth/users/${editing.id}`, {
        username: 'edit.me',
        email: 'edit.me@acme.test',
        mobileNo: '9000000000',
        client: 'New Co',
      }),
    );
    expect(await screen.findByText(messages.users.updated)).not.toBeNull();
    expect(router.state.location.pathname).toBe('/dashboard/inviteuser');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/usermanagement'), {
      timeout: 2500,
    });
  });

  it('refuses, as the server does, a user whose role is wider than the editor’s', async () => {
    auth.user = makeUser({
      role: {
        id: 'role-narrow',
        name: 'Recruiter',
        isSystem: false,
        permissions: [entry('users', ['READ', 'UPDATE'])],
      },
    });
    renderForm(`/dashboard/inviteuser?edit=${editing.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: messages.http.forbidden })).not.toBeNull();
    expect(screen.queryByRole('button', { name: messages.users.updateUser })).toBeNull();
  });

  it('shows the server’s message when the update fails', async () => {
    const { ApiError } = await import('../../../lib/api-client');
    apiMock.put.mockRejectedValue(
      new ApiError(409, messages.users.duplicate, { success: false, message: messages.users.duplicate }),
    );
    renderForm(`/dashboard/inviteuser?edit=${editing.id}`);
    await waitFor(() =>
      expect(
        (screen.getByRole('textbox', { name: messages.users.emailLabel }) as HTMLInputElement).value,
      ).toBe('edit.me@acme.test'),
    );
    await userEvent.setup().click(screen.getByRole('button', { name: messages.users.updateUser }));
    expect(await screen.findByText(messages.users.duplicate)).not.toBeNull();
  });
});
