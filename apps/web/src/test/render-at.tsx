import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { createMemoryRouter, parsePath, RouterProvider } from 'react-router';

/**
 * Renders `element` as the page at `route`, opened at `path` (with its query, and navigation `state`
 * when given) inside the app's providers; each of `others` is a marker page showing its own path.
 */
export function renderAt(
  element: ReactElement,
  options: { route: string; path: string; state?: unknown; others?: string[] },
) {
  const router = createMemoryRouter(
    [
      { path: options.route, element },
      ...(options.others ?? []).map((p) => ({ path: p, element: <p>page {p}</p> })),
    ],
    { initialEntries: [{ ...parsePath(options.path), state: options.state }] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SnackbarProvider maxSnack={3}>
        <RouterProvider router={router} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}
