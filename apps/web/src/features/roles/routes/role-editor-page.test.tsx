import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { featureSchema, FEATURES, messages, roleSchema, type Role, type SessionUser } from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, page, refusal } from '../../../test/responses';
import { aRole, aSystemRole } from '../../../test/roles';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin } from '../../../test/users';
import { roleManager, testFeatures } from '../test-utils';
import { RoleEditorPage } from './role-editor-page';

const ROLE_ID = '11111111-1111-4111-8111-111111111111';

const featuresHandler = http.get('/api/auth/features', () => page(featureSchema, testFeatures));

/** The features, and the role being edited (none: 404). */
function serve(role: Role | null = null) {
  server.use(
    featuresHandler,
    http.get(`/api/auth/roles/${ROLE_ID}`, () =>
      role ? ok(roleSchema, role) : refusal(404, messages.roles.roleNotFound),
    ),
  );
}

let signedIn: SessionUser;

function renderEditor(state: unknown = { isEditing: false }) {
  return renderAt('/dashboard/addrole', {
    element: <RoleEditorPage />,
    state,
    others: ['/dashboard/userroles'],
    user: signedIn,
  });
}

const nameField = () => screen.getByRole('textbox', { name: /Role Name/ });
const saveButton = () => screen.getByRole('button', { name: messages.roles.saveRole });
const box = (label: string) => screen.getByRole('checkbox', { name: label });

beforeEach(() => {
  signedIn = aSuperAdmin();
  serve();
});

describe('role editor: add', () => {
  it('shows the new-role heading, the module grid with descriptions and the help panel', async () => {
    await renderEditor();
    // The form is drawn afresh once the features arrive (role-editor-page.tsx, its `key`).
    expect(await screen.findByText(FEATURES.users.description)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: messages.roles.newHeading })).toBeInTheDocument();
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
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/auth/features', async () => {
        await released;
        return page(featureSchema, testFeatures);
      }),
    );
    await renderEditor();
    expect(await screen.findByText(messages.roles.loading)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    release();
    expect(await screen.findByRole('textbox', { name: /Role Name/ })).toBeInTheDocument();
  });

  it('validates the name on blur in SPEC order: required, length, characters', async () => {
    const user = userEvent.setup();
    await renderEditor();
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
    await renderEditor();
    await screen.findByRole('textbox', { name: /Role Name/ });
    expect(saveButton()).toBeDisabled();
  });

  it('on save checks the name before the permissions, then asks for one permission', async () => {
    const user = userEvent.setup();
    await renderEditor();
    await user.type(await screen.findByRole('textbox', { name: /Role Name/ }), 'ab');
    await user.click(saveButton());
    expect(await screen.findByText(messages.roles.nameTooShort)).toBeInTheDocument();
    expect(screen.queryByText(messages.roles.permissionRequired)).not.toBeInTheDocument();

    await user.type(nameField(), 'c');
    await user.click(saveButton());
    expect(await screen.findByText(messages.roles.permissionRequired)).toBeInTheDocument();
    expect(sentRequests('POST')).toHaveLength(0);
  });

  it('sends the role payload with only the ticked features, then redirects after the toast', async () => {
    const user = userEvent.setup();
    server.use(http.post('/api/auth/roles', () => ok(roleSchema, aRole(), { status: 201 })));
    const { router } = await renderEditor();
    await user.type(await screen.findByRole('textbox', { name: /Role Name/ }), '  Recruiter  ');
    await user.click(box('User Management View'));
    await user.click(box('User Management Create'));
    await user.click(box('Support Export'));
    await user.click(box('Support Export'));
    await user.click(box('Support View'));
    await user.click(saveButton());

    expect(await screen.findByText(messages.roles.addedToast)).toBeInTheDocument();
    expect(sentRequests('POST').map((r) => r.path)).toEqual(['/auth/roles']);
    const payload = lastRequest('POST', '/auth/roles').body as { permissions: { id: string }[] };
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
    expect(payload.permissions[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(router.state.location.pathname).toBe('/dashboard/addrole');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/userroles'), {
      timeout: 3000,
    });
  });

  it('shows the server message when saving fails, and marks a taken name', async () => {
    const user = userEvent.setup();
    server.use(http.post('/api/auth/roles', () => refusal(409, messages.roles.nameTaken)));
    await renderEditor();
    await user.type(await screen.findByRole('textbox', { name: /Role Name/ }), 'Recruiter');
    await user.click(box('User Management View'));
    await user.click(saveButton());
    expect(await screen.findAllByText(messages.roles.nameTaken)).toHaveLength(2);
    expect(saveButton()).toBeDisabled();
  });

  it('falls back to the generic text when a save fails without a message', async () => {
    const user = userEvent.setup();
    server.use(http.post('/api/auth/roles', () => new HttpResponse(null, { status: 500 })));
    await renderEditor();
    await user.type(await screen.findByRole('textbox', { name: /Role Name/ }), 'Recruiter');
    await user.click(box('User Management View'));
    await user.click(saveButton());
    expect(await screen.findByText(messages.common.unexpected)).toBeInTheDocument();
  });

  it('toasts a failed feature load and keeps Save disabled', async () => {
    server.use(http.get('/api/auth/features', () => refusal(500, 'boom')));
    await renderEditor();
    expect(await screen.findByText(messages.roles.loadFeaturesFailed)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('toasts a features answer without a list', async () => {
    // Off the contract on purpose: the page must survive an answer that is not a list.
    server.use(
      http.get('/api/auth/features', () => HttpResponse.json({ success: true, data: { nope: true } })),
    );
    await renderEditor();
    expect(await screen.findByText(messages.roles.noFeaturesInResponse)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('does not let a user tick a scope they do not hold', async () => {
    signedIn = roleManager;
    await renderEditor();
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
    // Off the contract on purpose: a role stored with the legacy bitmask, which the editor still reads.
    server.use(
      featuresHandler,
      http.get(`/api/auth/roles/${ROLE_ID}`, () =>
        HttpResponse.json({
          success: true,
          data: {
            id: ROLE_ID,
            name: 'Legacy',
            permissions: [
              { featureId: FEATURES.users.id, featureName: 'User Management', permissions: 5 },
              { featureName: 'Support', permissions: 48 },
            ],
          },
        }),
      ),
      http.put(`/api/auth/roles/${ROLE_ID}`, () => ok(roleSchema, aRole({ id: ROLE_ID, name: 'Legacy' }))),
    );
    await renderEditor({ isEditing: true, roleId: ROLE_ID });
    await waitFor(() => expect(nameField()).toHaveValue('Legacy'));
    expect(screen.getByRole('heading', { name: messages.roles.editHeading })).toBeInTheDocument();
    expect(box('User Management View')).toBeChecked();
    expect(box('User Management Create')).not.toBeChecked();
    expect(box('User Management Update')).toBeChecked();
    expect(box('Support Export')).toBeChecked();
    expect(box('Support Import')).toBeChecked();

    await user.click(box('Support Import'));
    await user.click(screen.getByRole('button', { name: messages.roles.updateRole }));
    expect(await screen.findByText(messages.roles.updatedToast)).toBeInTheDocument();
    expect(sentRequests('PUT').map((r) => r.path)).toEqual([`/auth/roles/${ROLE_ID}`]);
    const payload = lastRequest('PUT', `/auth/roles/${ROLE_ID}`).body as {
      permissions: { featureId: string; permissionScopes: string[] }[];
    };
    expect(
      payload.permissions.map((p: { featureId: string; permissionScopes: string[] }) => [
        p.featureId,
        p.permissionScopes,
      ]),
    ).toEqual([
      [FEATURES.users.id, ['READ', 'UPDATE']],
      [FEATURES.support.id, ['EXPORT']],
    ]);
  });

  it('toasts a role that cannot be loaded for editing and keeps Update disabled', async () => {
    await renderEditor({ isEditing: true, roleId: ROLE_ID });
    expect(await screen.findByText(messages.roles.loadForEditFailed)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: messages.roles.updateRole })).toBeDisabled();
  });

  it('refuses to edit a system role', async () => {
    serve(aSystemRole('admin', { id: ROLE_ID }));
    await renderEditor({ isEditing: true, roleId: ROLE_ID });
    expect(await screen.findByText(messages.roles.systemReadOnly)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: messages.roles.updateRole })).toBeDisabled();
  });

  it('Cancel goes back to the roles list', async () => {
    const user = userEvent.setup();
    const { router } = await renderEditor();
    await screen.findByRole('textbox', { name: /Role Name/ });
    await user.click(screen.getByRole('button', { name: messages.roles.cancel }));
    expect(router.state.location.pathname).toBe('/dashboard/userroles');
  });
});
