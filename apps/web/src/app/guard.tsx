import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from '../features/auth/auth-context';
import { returnPathAfterSignIn } from '../features/auth/return-path';
import { FullScreenLoading } from './loading-layer';

// Rarely shown: loaded when needed, not with every first page.
const SessionUnreachable = lazy(() =>
  import('./session-unreachable').then((m) => ({ default: m.SessionUnreachable })),
);
// The shell is loaded with the first protected page, not with the sign-in screen.
const DashboardLayout = lazy(() =>
  import('./shell/dashboard-layout').then((m) => ({ default: m.DashboardLayout })),
);

/** Signed-out users go to /auth/login; a loading screen shows while auth loads or refreshes. */
export function ProtectedLayout() {
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
  return (
    <Suspense fallback={<FullScreenLoading />}>
      <DashboardLayout />
    </Suspense>
  );
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
