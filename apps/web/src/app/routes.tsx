import { Navigate, Outlet, type RouteObject } from 'react-router';
import { FullScreenLoading, LoadingLayerProvider } from './loading-layer';
import { ProtectedLayout, PublicOnlyLayout } from './guard';
import { RouteErrorView } from './route-error-view';

/**
 * The child pages of /dashboard and of /logindashboard (SPEC.md §2). Each feature adds its own
 * lines; route code is loaded lazily.
 */
export const dashboardChildren: RouteObject[] = [
  {
    path: 'usermanagement',
    lazy: () =>
      import('../features/users/routes/users-list-page').then((m) => ({ Component: m.UsersListPage })),
  },
  {
    path: 'usermanagement/invite',
    lazy: () =>
      import('../features/users/routes/invite-user-page').then((m) => ({ Component: m.InviteUserPage })),
  },
  {
    path: 'inviteuser',
    lazy: () =>
      import('../features/users/routes/invite-user-page').then((m) => ({ Component: m.InviteUserPage })),
  },
  {
    path: 'register',
    lazy: () => import('../features/users/routes/register-page').then((m) => ({ Component: m.RegisterPage })),
  },
  {
    index: true,
    lazy: () => import('../features/home/routes/home-page').then((m) => ({ Component: m.HomePage })),
  },
  {
    path: 'activity',
    lazy: () =>
      import('../features/activity/routes/activity-page').then((m) => ({ Component: m.ActivityPage })),
  },
  {
    path: 'positions',
    lazy: () =>
      import('../features/positions/routes/positions-page').then((m) => ({ Component: m.PositionsPage })),
  },
  {
    path: 'userroles',
    lazy: () =>
      import('../features/roles/routes/roles-list-page').then((m) => ({ Component: m.RolesListPage })),
  },
  {
    path: 'addrole',
    lazy: () =>
      import('../features/roles/routes/role-editor-page').then((m) => ({ Component: m.RoleEditorPage })),
  },
  {
    path: 'userpermissions',
    lazy: () =>
      import('../features/roles/routes/role-permissions-page').then((m) => ({
        Component: m.RolePermissionsPage,
      })),
  },
  {
    path: 'userpermissions/:roleId',
    lazy: () =>
      import('../features/roles/routes/role-permissions-page').then((m) => ({
        Component: m.RolePermissionsPage,
      })),
  },
  {
    path: 'profile',
    lazy: () => import('../features/profile/routes/profile-page').then((m) => ({ Component: m.ProfilePage })),
  },
  {
    path: 'settings',
    lazy: () =>
      import('../features/settings/routes/settings-page').then((m) => ({ Component: m.SettingsPage })),
  },
  {
    path: 'support',
    lazy: () => import('../features/support/routes/support-page').then((m) => ({ Component: m.SupportPage })),
  },
  {
    path: 'subscription',
    lazy: () =>
      import('../features/billing/routes/subscription-page').then((m) => ({ Component: m.SubscriptionPage })),
  },
  {
    path: 'usermanagement/subscription',
    lazy: () =>
      import('../features/billing/routes/subscription-page').then((m) => ({ Component: m.SubscriptionPage })),
  },
  {
    path: 'manualPayment',
    lazy: () =>
      import('../features/billing/routes/manual-payment-page').then((m) => ({
        Component: m.ManualPaymentPage,
      })),
  },
  {
    path: 'billing',
    lazy: () => import('../features/billing/routes/billing-page').then((m) => ({ Component: m.BillingPage })),
  },
];

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
    errorElement: <RouteErrorView />,
    // The first page's code is loaded before the router renders: the full-screen loading view meanwhile.
    HydrateFallback: FullScreenLoading,
    children: [
      { path: '/auth', element: <PublicOnlyLayout />, children: authChildren },
      { path: '/dashboard', element: <ProtectedLayout />, children: dashboardChildren },
      { path: '/logindashboard', element: <ProtectedLayout />, children: dashboardChildren },
      // `/` and any unknown path go to /dashboard.
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
];
