import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages, roleSchema, storageKeys, userSchema, type Role, type SessionUser } from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, page, refusal } from '../../../test/responses';
import { aRole, aSystemRole } from '../../../test/roles';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aUser, permission } from '../../../test/users';
import { InviteUserPage } from './invite-user-page';

const ADMIN_ROLE = aSystemRole('ADMIN', { id: 'aaaaaaaa-0000-4000-8000-000000000002' });
const editing = aUser({
  username: 'edit.me',
  email: 'edit.me@acme.test',
  mobileNo: '9000000000',
  client: 'Old Co',
  role: 'admin',
  permissions: [permission('users', ['READ', 'CREATE', 'UPDATE'])],
});

function serve(roles: Role[] = [ADMIN_ROLE]) {
  server.use(
    http.get('/api/auth/roles', () => page(roleSchema, roles, { pageSize: 100 })),
    http.get(`/api/auth/users/${editing.id}`, () => ok(userSchema, editing)),
  );
}

/** A tenant admin, holding User Management, unless a test signs in someone narrower. */
let signedIn: SessionUser;

function renderForm(path = '/dashboard/inviteuser') {
  return renderAt(path, {
    element: <InviteUserPage />,
    route: '/dashboard/inviteuser',
    others: ['/dashboard/subscription', '/dashboard/usermanagement'],
    user: signedIn,
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
  signedIn = aUser({ role: 'admin', permissions: [permission('users', ['READ', 'CREATE', 'UPDATE'])] });
  serve();
});

describe('Invite Admin', () => {
  it('shows the form with the +91 prefix and the create button', async () => {
    await renderForm();
    expect(await screen.findByRole('heading', { name: messages.users.addTitle })).not.toBeNull();
    expect(screen.getByText('+91')).not.toBeNull();
    expect(screen.getByRole('button', { name: messages.users.continueToSubscription })).not.toBeNull();
    expect(screen.getByRole('link', { name: messages.users.backToUserManagement })).not.toBeNull();
  });

  it('reports one broken rule at a time, in the order the form checks them', async () => {
    await renderForm();
    await screen.findByRole('heading', { name: messages.users.addTitle });
    await waitFor(() => expect(sentRequests('GET', '/auth/roles')).not.toHaveLength(0));
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
    const { router } = await renderForm();
    await waitFor(() => expect(sentRequests('GET', '/auth/roles')).not.toHaveLength(0));
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
    expect(sentRequests('POST')).toHaveLength(0);
  });

  it('says so when no role is named admin, and refuses to submit', async () => {
    serve([aRole({ name: 'Recruiter' })]);
    await renderForm();
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
    server.use(http.put('/api/auth/users/:id', () => ok(userSchema, { ...editing, client: 'New Co' })));
    const { router } = await renderForm(`/dashboard/inviteuser?edit=${editing.id}`);
    expect(await screen.findByRole('heading', { name: messages.users.editTitle })).not.toBeNull();
    const email = (await screen.findByRole('textbox', {
      name: messages.users.emailLabel,
    })) as HTMLInputElement;
    await waitFor(() => expect(email.value).toBe('edit.me@acme.test'));
    expect(email.disabled).toBe(true);
    expect(screen.getByText(messages.users.emailLocked)).not.toBeNull();
    const user = await fill({ company: 'New Co' });
    await user.click(screen.getByRole('button', { name: messages.users.updateUser }));
    expect(await screen.findByText(messages.users.updated)).not.toBeNull();
    expect(lastRequest('PUT', `/auth/users/${editing.id}`).body).toEqual({
      username: 'edit.me',
      email: 'edit.me@acme.test',
      mobileNo: '9000000000',
      client: 'New Co',
    });
    expect(router.state.location.pathname).toBe('/dashboard/inviteuser');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/usermanagement'), {
      timeout: 2500,
    });
  });

  it('refuses, as the server does, a user whose role is wider than the editor’s', async () => {
    signedIn = aUser({ role: 'Recruiter', permissions: [permission('users', ['READ', 'UPDATE'])] });
    await renderForm(`/dashboard/inviteuser?edit=${editing.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: messages.http.forbidden })).not.toBeNull();
    expect(screen.queryByRole('button', { name: messages.users.updateUser })).toBeNull();
  });

  it('shows the server’s message when the update fails', async () => {
    server.use(http.put('/api/auth/users/:id', () => refusal(409, messages.users.duplicate)));
    await renderForm(`/dashboard/inviteuser?edit=${editing.id}`);
    await waitFor(() =>
      expect(
        (screen.getByRole('textbox', { name: messages.users.emailLabel }) as HTMLInputElement).value,
      ).toBe('edit.me@acme.test'),
    );
    await userEvent.setup().click(screen.getByRole('button', { name: messages.users.updateUser }));
    expect(await screen.findByText(messages.users.duplicate)).not.toBeNull();
  });
});
