import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { FEATURES, type PermissionEntry, type Scope, type User } from '@portal/shared';

export function entry(featureKey: keyof typeof FEATURES, scopes: Scope[]): PermissionEntry {
  const f = FEATURES[featureKey];
  return { id: `p-${f.id}`, featureId: f.id, featureName: f.name, permissionScopes: scopes };
}

let serial = 0;
/** A user as the API answers it. */
export function makeUser(overrides: Partial<User> = {}): User {
  serial += 1;
  const id = `0000000${serial}`.slice(-8) + '-1111-4111-8111-111111111111';
  return {
    id,
    username: `user${serial}`,
    email: `user${serial}@acme.test`,
    fullName: null,
    mobileNo: '9876543210',
    enabled: true,
    isActive: true,
    isSubscription: true,
    client: 'Acme',
    roleId: 'role-admin',
    role: { id: 'role-admin', name: 'admin', isSystem: true, permissions: [] },
    organizationId: '22222222-2222-4222-8222-222222222222',
    isAdmin: true,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

export const superAdmin = makeUser({
  id: 'me-super',
  username: 'root',
  role: { id: 'r-super', name: 'super_admin', isSystem: true, permissions: [] },
});

/** Renders `element` at `path` with the app's providers; `others` are marker pages that show their path. */
export function renderAt(element: ReactElement, options: { route: string; path: string; others?: string[] }) {
  const router = createMemoryRouter(
    [
      { path: options.route, element },
      ...(options.others ?? []).map((p) => ({ path: p, element: <p>page {p}</p> })),
    ],
    { initialEntries: [options.path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SnackbarProvider maxSnack={3}>
        <RouterProvider router={router} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { ...view, router };
}
