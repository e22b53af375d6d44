import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FEATURES, messages, type User } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { roleManager, superAdmin, testFeatures, testRole } from '../test-utils';
import { renderAt } from '../../../test/render-at';
import { RoleEditorPage } from './role-editor-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

const ROLE_ID = '11111111-1111-4111-8111-111111111111';

function serve(role: unknown = null) {
  apiMock.get.mockImplementation(async (path: string) => {
    if (path === '/auth/features') return { success: true, data: testFeatures };
    if (path === `/auth/roles/${ROLE_ID}` && role) return { success: true, data: role };
    throw new ApiError(404, messages.roles.roleNotFound);
  });
}

function renderEditor(state: unknown = { isEditing: false }) {
  return renderAt(<RoleEditorPage />, {
    route: '/dashboard/addrole',
    path: '/dashboard/addrole',
    state,
    others: ['/dashboard/userroles'],
  });
}

const nameField = () => screen.getByRole('textbox', { name: /Role Name/ });
const saveButton = () => screen.getByRole('button', { name: messages.roles.saveRole });
const box = (label: string) => screen.getByRole('checkbox', { name: label });

beforeEach(() => {
  vi.clearAllMocks();
  auth.user = superAdmin;
  serve();
});

describe('role editor: add', () => {
  it('shows the new-role heading, the module grid with descriptions and the help panel', async () => {
    renderEditor();
    expect(await screen.findByRole('heading', { name: messages.roles.newHeading })).toBeInTheDocument();
    expect(await screen.findByText(FEATURES.users.description)).toBeInTheDocument();
    for (const label of ['View', 'Create', 'Update', 'Delete', 'Export', 'Import']) {
      expect(box(`User Management ${label}`)).not.toBeChecked();
    }
    expect(screen.getByRole('heading', { name: messages.roles.helpTitle })).toBeInTheDocument();
    expect(screen.getByText(messages.roles.help.EXPORT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.roles.backToRoles })).toHaveAttribute(
      'href',
      '/dashboard/userroles',
    );
  });

  it('shows the loading text while the features load', async () => {
    let release: (v: unknown) => void = () => {};
    apiMock.get.mockImplementation(() => new Promise((resolve) => (release = resolve)));
    renderEditor();
    expect(await screen.findByText(messages.roles.loading)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    release({ success: true, data: testFeatures });
    expect(await screen.findByRole('textbox', { name: /Role Name/ })).toBeInTheDocument();
  });

  it('validates the name on blur in SPEC order: required, length, characters', async () => {
    const user = userEvent.setup();
    renderEditor();
    await user.click(await screen.findByRole('textbox', { name: /Role Name/ }));
    await user.type(nameField(), '   ');
    await user.tab();
    expect(await screen.findByText(messages.roles.nameRequired)).toBeInTheDocument();

    await user.clear(nameField());
    await user.type(nameField(), ' a$ ');
    await user.tab();
    expect(await screen.findByText(messages.roles.nameTooShort)).toBeInTheDocument();

    await user.clear(nameField());
    await user.type(nameField(), 'Bad$Name');
    await user.tab();
    expect(await screen.findByText(messages.roles.nameInvalid)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();

    await user.clear(nameField());
    await user.type(nameField(), 'Good Name');
    await waitFor(() => expect(screen.queryByText(messages.roles.nameInvalid)).not.toBeInTheDocument());
    expect(saveButton()).toBeEnabled();
  });

  it('keeps Save disabled while the name is empty', async () => {
    renderEditor();
    await screen.findByRole('textbox', { name: /Role Name/ });
    expect(saveButton()).toBeDisabled();
  });

  it('on save checks the name before the permissions, then asks for one permission', async () => {
    const user = userEvent.setup();
    renderEditor();
    await user.type(await screen.findByRole('textbox', { name: /Role Name/ }), 'ab');
    await user.click(saveButton());
    expect(await screen.findByText(messages.roles.nameTooShort)).toBeInTheDocument();
    expect(screen.queryByText(messages.roles.permissionRequired)).not.toBeInTheDocument();

    await user.type(nameField(), 'c');
    await user.click(saveButton());
    expect(await screen.findByText(messages.roles.permissionRequired)).toBeInTheDocument();
    expect(apiMock.post).not.toHaveBeenCalled();
  });

  it('sends the role payload with only the ticked features, then redirects after the toast', async () => {
    const user = userEvent.setup();
    apiMock.post.mockResolvedValue({ success: true, data: testRole() });
    const { router } = renderEditor();
    await user.type(await screen.findByRole('textbox', { name: /Role Name/ }), '  Recruiter  ');
    await user.click(box('User Management View'));
    await user.click(box('User Management Create'));
    await user.click(box('Support Export'));
    await user.click(box('Support Export'));
    await user.click(box('Support View'));
    await user.click(saveButton());

    await waitFor(() => expect(apiMock.post).toHaveBeenCalledTimes(1));
    const [path, payload] = apiMock.post.mock.calls[0]!;
    expect(path).toBe('/auth/roles');
    expect(payload).toEqual({
      code: 'Recruiter',
      name: 'Recruiter',
      isSystem: false,
      permissions: [
        {
          id: expect.any(String),
          featureId: FEATURES.users.id,
          featureName: 'User Management',
          permissionScopes: ['READ', 'CREATE'],
        },
        {
          id: expect.any(String),
          featureId: FEATURES.support.id,
          featureName: 'Support',
          permissionScopes: ['READ'],
        },
      ],
    });
    expect(payload.permissions[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText(messages.roles.addedToast)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/addrole');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/userroles'), {
      timeout: 3000,
    });
  });

  it('shows the server message when saving fails, and marks a taken name', async () => {
    const user = userEvent.setup();
    apiMock.post.mockRejectedValue(
      new ApiError(409, messages.roles.nameTaken, {
        success: false,
        message: messages.roles.nameTaken,
        errors: {},
      }),
    );
    renderEditor();
    await user.type(await screen.findByRole('textbox', { name: /Role Name/ }), 'Recruiter');
    await user.click(box('User Management View'));
    await user.click(saveButton());
    expect(await screen.findAllByText(messages.roles.nameTaken)).toHaveLength(2);
    expect(saveButton()).toBeDisabled();
  });

  it('falls back to the SPEC text when a save fails without a message', async () => {
    const user = userEvent.setup();
    apiMock.post.mockRejectedValue(new Error(''));
    renderEditor();
    await user.type(await screen.findByRole('textbox', { name: /Role Name/ }), 'Recruiter');
    await user.click(box('User Management View'));
    await user.click(saveButton());
    expect(await screen.findByText(messages.common.unexpectedRetry)).toBeInTheDocument();
  });

  it('toasts a failed feature load and keeps Save disabled', async () => {
    apiMock.get.mockRejectedValue(new ApiError(500, 'boom'));
    renderEditor();
    expect(await screen.findByText(messages.roles.loadFeaturesFailed)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('toasts a features answer without a list', async () => {
    apiMock.get.mockResolvedValue({ success: true, data: { nope: true } });
    renderEditor();
    expect(await screen.findByText(messages.roles.noFeaturesInResponse)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('does not let a user tick a scope they do not hold', async () => {
    auth.user = roleManager;
    renderEditor();
    await screen.findByRole('textbox', { name: /Role Name/ });
    expect(box('Role Management Delete')).toBeEnabled();
    expect(box('Support Export')).toBeEnabled();
    expect(box('Support Delete')).toBeDisabled();
    expect(box('Organization Management View')).toBeDisabled();
  });
});

describe('role editor: edit', () => {
  it('loads a legacy bitmask role into the grid and sends the list shape', async () => {
    const user = userEvent.setup();
    serve({
      id: ROLE_ID,
      name: 'Legacy',
      permissions: [
        { featureId: FEATURES.users.id, featureName: 'User Management', permissions: 5 },
        { featureName: 'Support', permissions: 48 },
      ],
    });
    apiMock.put.mockResolvedValue({ success: true, data: testRole() });
    renderEditor({ isEditing: true, roleId: ROLE_ID });
    expect(await screen.findByRole('heading', { name: messages.roles.editHeading })).toBeInTheDocument();
    await waitFor(() => expect(nameField()).toHaveValue('Legacy'));
    expect(box('User Management View')).toBeChecked();
    expect(box('User Management Create')).not.toBeChecked();
    expect(box('User Management Update')).toBeChecked();
    expect(box('Support Export')).toBeChecked();
    expect(box('Support Import')).toBeChecked();

    await user.click(box('Support Import'));
    await user.click(screen.getByRole('button', { name: messages.roles.updateRole }));
    await waitFor(() => expect(apiMock.put).toHaveBeenCalledTimes(1));
    const [path, payload] = apiMock.put.mock.calls[0]!;
    expect(path).toBe(`/auth/roles/${ROLE_ID}`);
    expect(
      payload.permissions.map((p: { featureId: string; permissionScopes: string[] }) => [
        p.featureId,
        p.permissionScopes,
      ]),
    ).toEqual([
      [FEATURES.users.id, ['READ', 'UPDATE']],
      [FEATURES.support.id, ['EXPORT']],
    ]);
    expect(await screen.findByText(messages.roles.updatedToast)).toBeInTheDocument();
  });

  it('toasts a role that cannot be loaded for editing and keeps Update disabled', async () => {
    renderEditor({ isEditing: true, roleId: ROLE_ID });
    expect(await screen.findByText(messages.roles.loadForEditFailed)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: messages.roles.updateRole })).toBeDisabled();
  });

  it('refuses to edit a system role', async () => {
    serve(testRole({ id: ROLE_ID, name: 'admin', isSystem: true, organizationId: null }));
    renderEditor({ isEditing: true, roleId: ROLE_ID });
    expect(await screen.findByText(messages.roles.systemReadOnly)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: messages.roles.updateRole })).toBeDisabled();
  });

  it('Cancel goes back to the roles list', async () => {
    const user = userEvent.setup();
    const { router } = renderEditor();
    await screen.findByRole('textbox', { name: /Role Name/ });
    await user.click(screen.getByRole('button', { name: messages.roles.cancel }));
    expect(router.state.location.pathname).toBe('/dashboard/userroles');
  });
});
