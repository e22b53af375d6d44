import { lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from '../lib/session/auth-context';
import { returnPathAfterSignIn } from '../lib/session/return-path';
import { mustSetUpTwoFactor, TWO_FACTOR_SETUP_PATH } from '../lib/session/two-factor-gate';
import { FullScreenLoading } from './loading-layer';

// Rarely shown: loaded when needed, not with every first page.
const SessionUnreachable = lazy(() =>
  import('./session-unreachable').then((m) => ({ default: m.SessionUnreachable })),
);
// The shell is loaded with the first protected page, not with the sign-in screen.
const DashboardLayout = lazy(() =>
  import('./shell/dashboard-layout').then((m) => ({ default: m.DashboardLayout })),
);

/**
 * What a page for signed-in users shows instead of itself: a loading screen while auth loads or
 * refreshes, the unreachable screen, or the way to /auth/login; null once signed in.
 */
function useSignedInOnly(): ReactElement | null {
  const { isAuthenticated, loading, refreshing, unreachable } = useAuth();
  const location = useLocation();
  if (loading || (refreshing && !isAuthenticated)) return <FullScreenLoading />;
  // Signed in, but the server did not answer: not a sign-out, the session is kept for a retry.
  if (unreachable)
    return (
      <Suspense fallback={<FullScreenLoading />}>
        <SessionUnreachable error={unreachable} />
      </Suspense>
    );
  if (!isAuthenticated)
    return <Navigate to="/auth/login" replace state={{ from: location.pathname + location.search }} />;
  return null;
}

/**
 * The shell and its pages, for signed-in users; a user whose role requires two-factor sign-in they
 * have not set up goes to set it up first (the server refuses the shell's calls until then), and
 * from there on to the page asked for. `topBarActions` are the top bar's controls from features, which
 * the route table hands in (app/ reaches features only through app/routes.tsx).
 */
export function ProtectedLayout({ topBarActions }: { topBarActions?: ReactNode }) {
  const { user } = useAuth();
  const location = useLocation();
  const instead = useSignedInOnly();
  if (instead) return instead;
  if (mustSetUpTwoFactor(user))
    return (
      <Navigate
        to={TWO_FACTOR_SETUP_PATH}
        replace
        state={{ from: location.pathname + location.search + location.hash }}
      />
    );
  return (
    <Suspense fallback={<FullScreenLoading />}>
      <DashboardLayout topBarActions={topBarActions} />
    </Suspense>
  );
}

/** The two-factor setup page: signed-in users only, full screen without the shell. */
export function TwoFactorSetupLayout() {
  return useSignedInOnly() ?? <Outlet />;
}

/**
 * /auth/* is shown only when signed out; otherwise it redirects to /dashboard, or, right after a
 * sign-in, to the page the visitor had asked for.
 */
export function PublicOnlyLayout() {
  const { isAuthenticated, restoring } = useAuth();
  const location = useLocation();
  if (restoring) return <FullScreenLoading />;
  if (isAuthenticated) return <Navigate to={returnPathAfterSignIn(location.state)} replace />;
  return <Outlet />;
}
