import { useEffect, type ReactElement } from 'react';
import { act, render, type RenderResult } from '@testing-library/react';
import { ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import {
  createMemoryRouter,
  Navigate,
  Outlet,
  parsePath,
  RouterProvider,
  type RouteObject,
} from 'react-router';
import { storageKeys, type SessionUser } from '@portal/shared';
import { theme } from '../app/theme';
import { Toaster } from '../app/toaster';
import { AuthProvider, useAuth } from '../lib/session/auth-context';
import { createTestQueryClient } from './query-client';
import { setSession } from './server';

/** Where the app's guard sends whoever is not signed in. */
const SIGN_IN_PATH = '/auth/login';

interface PageOptions {
  /** The page under test, shown at `route` (default: the path's own); with `children`, a layout of them. */
  element: ReactElement;
  route?: string;
  children?: RouteObject[];
  /**
   * Paths that show a marker, `page {path}`, so a test sees where the page sends the user; with a
   * `user`, the sign-in screen's too.
   */
  others?: string[];
}

interface RoutesOptions {
  /** A route table of the test's own (the app's guards), instead of one page. */
  routes: RouteObject[];
}

export type RenderAtOptions = (PageOptions | RoutesOptions) & {
  /** Navigation state of the entry opened. */
  state?: unknown;
  /** Entries before it in the history, so there is somewhere to go back to. */
  previous?: string[];
  /**
   * Signed in as this user: their id is stored, as after a sign-in, and the API's `me` answers them;
   * the page is then for signed-in users, as under the app's guard. Without it, the page shows
   * whoever is (or is not) signed in.
   */
  user?: SessionUser;
  /** A query client of the test's own, e.g. holding what an earlier screen read (default: a new one). */
  queryClient?: QueryClient;
};

export interface RenderAtResult extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
}

/**
 * Holds the page until the stored session's user is read, as the app's guard does (app/guard.tsx).
 * A page for signed-in users (`signedInOnly`) shows only while someone is, and otherwise leaves for
 * the sign-in screen, so it is gone in the same render as the session (as under the guard).
 */
function SessionGate({ signedInOnly, onLoaded }: { signedInOnly: boolean; onLoaded: () => void }) {
  const { loading, isAuthenticated } = useAuth();
  useEffect(() => {
    if (!loading) onLoaded();
  }, [loading, onLoaded]);
  if (loading) return null;
  if (signedInOnly && !isAuthenticated) return <Navigate to={SIGN_IN_PATH} replace />;
  return <Outlet />;
}

/**
 * Opens `path` (with its query) in the app's providers: the query client, the theme, the toasts, and
 * the real session, which reads the signed-in user from the API (the MSW server) as the app does.
 * With `element`, resolves once that session is read and the page shows; with `routes`, at once.
 */
export async function renderAt(path: string, options: RenderAtOptions): Promise<RenderAtResult> {
  if (options.user) {
    setSession(options.user);
    localStorage.setItem(storageKeys.userId, options.user.id);
  }
  let loaded = () => {};
  const sessionLoaded = new Promise<void>((resolve) => (loaded = resolve));
  let routes: RouteObject[];
  if ('routes' in options) routes = options.routes;
  else {
    const route = options.route ?? parsePath(path).pathname!;
    const others = options.others ?? [];
    // Where a page for signed-in users sends whoever is not.
    const signInToo = options.user && route !== SIGN_IN_PATH && !others.includes(SIGN_IN_PATH);
    const marked = signInToo ? [...others, SIGN_IN_PATH] : others;
    routes = [
      {
        element: <SessionGate signedInOnly={!!options.user} onLoaded={loaded} />,
        children: [{ path: route, element: options.element, children: options.children }],
      },
      ...marked.map((p) => ({ path: p, element: <p>page {p}</p> })),
    ];
  }
  const previous = options.previous ?? [];
  const router = createMemoryRouter(routes, {
    initialEntries: [...previous, { ...parsePath(path), state: options.state }],
    initialIndex: previous.length,
  });
  const queryClient = options.queryClient ?? createTestQueryClient();
  const view = render(
    <ThemeProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
        <Toaster />
      </QueryClientProvider>
    </ThemeProvider>,
  );
  if (!('routes' in options)) await act(() => sessionLoaded);
  return { ...view, router, queryClient };
}
