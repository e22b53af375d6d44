import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FEATURES, messages, type PermissionHolder } from '@portal/shared';
import { PAGE_ACCESS } from '../lib/page-access';
import { PermittedOutlet } from './route-guard';

const who = vi.hoisted(() => ({ holder: { isSuperAdmin: false, permissions: [] } as PermissionHolder }));
vi.mock('../features/auth/use-permission', () => ({ usePermissions: () => ({ holder: who.holder }) }));

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard',
        element: <PermittedOutlet />,
        children: [
          { index: true, element: <h1>Home</h1> },
          { path: 'userroles', handle: { access: PAGE_ACCESS.userroles }, element: <h1>Roles</h1> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  who.holder = { isSuperAdmin: false, permissions: [] };
});

describe('the route guard', () => {
  it('says "You do not have permission to do this." for a page the user may not use, with a way back', () => {
    renderAt('/dashboard/userroles');
    expect(screen.getByRole('heading', { level: 1, name: messages.http.forbidden })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Roles' })).toBeNull();
    expect(screen.getByRole('link', { name: messages.common.backToDashboard }).getAttribute('href')).toBe(
      '/dashboard',
    );
  });

  it('shows the page to a user who holds what it declares, and pages that declare nothing to all', () => {
    who.holder = {
      isSuperAdmin: false,
      permissions: [
        {
          featureId: FEATURES.roles.id,
          featureName: FEATURES.roles.name,
          permissionScopes: ['READ'],
        },
      ],
    };
    renderAt('/dashboard/userroles');
    expect(screen.getByRole('heading', { name: 'Roles' })).toBeTruthy();
  });

  it('shows a page that declares nothing to everyone', () => {
    renderAt('/dashboard');
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
  });
});
