import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { createMemoryRouter, RouterProvider } from 'react-router';

/** Renders `element` at `path` inside the app's providers; `others` are plain marker pages. */
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

export const ORG_ID = '33333333-3333-4333-8333-333333333333';

export const pendingUser = {
  username: 'acme.admin',
  email: 'admin@acme.test',
  mobileNo: '9876543210',
  client: 'Acme Hiring',
  organizationId: ORG_ID,
  roleId: '44444444-4444-4444-8444-444444444444',
  isSubscription: false,
  isActive: true,
  createAsAdmin: true,
};
