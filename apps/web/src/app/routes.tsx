import { Navigate, Outlet, type RouteObject } from 'react-router';
import { LoadingLayerProvider } from './loading-layer';
import { ProtectedLayout, PublicOnlyLayout } from './guard';

/**
 * The child pages of /dashboard and of /logindashboard (SPEC.md §2). Each feature adds its own
 * lines; route code is loaded lazily.
 */
export const dashboardChildren: RouteObject[] = [];

const authChildren: RouteObject[] = [
  { index: true, element: <Navigate to="/auth/login" replace /> },
  {
    path: 'login',
    lazy: () => import('../features/auth/routes/login-page').then((m) => ({ Component: m.LoginPage })),
  },
  {
    path: 'forgot-password',
    lazy: () =>
      import('../features/auth/routes/forgot-password-page').then((m) => ({
        Component: m.ForgotPasswordPage,
      })),
  },
  {
    path: 'reset-password',
    lazy: () =>
      import('../features/auth/routes/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })),
  },
];

function RootLayout() {
  return (
    <LoadingLayerProvider>
      <Outlet />
    </LoadingLayerProvider>
  );
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/auth', element: <PublicOnlyLayout />, children: authChildren },
      { path: '/dashboard', element: <ProtectedLayout />, children: dashboardChildren },
      { path: '/logindashboard', element: <ProtectedLayout />, children: dashboardChildren },
      // `/` and any unknown path go to /dashboard.
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
];
