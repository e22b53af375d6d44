import { lazy } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { IMPORT_KINDS } from '@portal/shared';
import { PAGE_ACCESS } from '../lib/page-access';
import { FullScreenLoading, LoadingLayerProvider } from './loading-layer';
import { TWO_FACTOR_SETUP_PATH } from '../lib/session/two-factor-gate';
import { ProtectedLayout, PublicOnlyLayout, TwoFactorSetupLayout } from './guard';
import { RouteErrorView } from './route-error-view';

/**
 * The child pages of /dashboard and of /logindashboard. Each feature adds its own
 * lines; route code is loaded lazily. What each page needs is in lib/page-access.ts, attached as
 * `handle.access`: the guard (app/route-guard.tsx) shows a page only to users who meet it, so pages
 * do not check again.
 */
export const dashboardChildren: RouteObject[] = [
  {
    path: 'usermanagement',
    handle: { access: PAGE_ACCESS['usermanagement'] },
    lazy: () =>
      import('../features/users/routes/users-list-page').then((m) => ({ Component: m.UsersListPage })),
  },
  {
    path: 'usermanagement/invite',
    handle: { access: PAGE_ACCESS['usermanagement/invite'] },
    lazy: () =>
      import('../features/users/routes/invite-user-page').then((m) => ({ Component: m.InviteUserPage })),
  },
  {
    path: 'inviteuser',
    handle: { access: PAGE_ACCESS['inviteuser'] },
    lazy: () =>
      import('../features/users/routes/invite-user-page').then((m) => ({ Component: m.InviteUserPage })),
  },
  {
    path: 'register',
    handle: { access: PAGE_ACCESS['register'] },
    lazy: () => import('../features/users/routes/register-page').then((m) => ({ Component: m.RegisterPage })),
  },
  {
    // Everyone has a home: the welcome, and the dashboard's figures with Dashboard READ.
    index: true,
    lazy: () => import('../features/dashboard/routes/home-page').then((m) => ({ Component: m.HomePage })),
  },
  {
    path: 'activity',
    handle: { access: PAGE_ACCESS['activity'] },
    lazy: () =>
      import('../features/activity/routes/activity-page').then((m) => ({ Component: m.ActivityPage })),
  },
  {
    path: 'positions',
    handle: { access: PAGE_ACCESS['positions'] },
    lazy: () =>
      import('../features/positions/routes/positions-page').then((m) => ({ Component: m.PositionsPage })),
  },
  {
    path: 'userroles',
    handle: { access: PAGE_ACCESS['userroles'] },
    lazy: () =>
      import('../features/roles/routes/roles-list-page').then((m) => ({ Component: m.RolesListPage })),
  },
  {
    path: 'addrole',
    handle: { access: PAGE_ACCESS['addrole'] },
    lazy: () =>
      import('../features/roles/routes/role-editor-page').then((m) => ({ Component: m.RoleEditorPage })),
  },
  {
    path: 'userpermissions',
    handle: { access: PAGE_ACCESS['userpermissions'] },
    lazy: () =>
      import('../features/roles/routes/role-permissions-page').then((m) => ({
        Component: m.RolePermissionsPage,
      })),
  },
  {
    path: 'userpermissions/:roleId',
    handle: { access: PAGE_ACCESS['userpermissions/:roleId'] },
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
    handle: { access: PAGE_ACCESS['support'] },
    lazy: () => import('../features/support/routes/support-page').then((m) => ({ Component: m.SupportPage })),
  },
  {
    path: 'subscription',
    handle: { access: PAGE_ACCESS['subscription'] },
    lazy: () =>
      import('../features/billing/routes/subscription-page').then((m) => ({ Component: m.SubscriptionPage })),
  },
  {
    path: 'usermanagement/subscription',
    handle: { access: PAGE_ACCESS['usermanagement/subscription'] },
    lazy: () =>
      import('../features/billing/routes/subscription-page').then((m) => ({ Component: m.SubscriptionPage })),
  },
  {
    path: 'manualPayment',
    handle: { access: PAGE_ACCESS['manualPayment'] },
    lazy: () =>
      import('../features/billing/routes/manual-payment-page').then((m) => ({
        Component: m.ManualPaymentPage,
      })),
  },
  {
    path: 'billing',
    handle: { access: PAGE_ACCESS['billing'] },
    lazy: () => import('../features/billing/routes/billing-page').then((m) => ({ Component: m.BillingPage })),
  },
  {
    path: 'invoices',
    handle: { access: PAGE_ACCESS['invoices'] },
    lazy: () =>
      import('../features/invoices/routes/invoices-page').then((m) => ({ Component: m.InvoicesPage })),
  },
  {
    path: 'mail',
    handle: { access: PAGE_ACCESS['mail'] },
    lazy: () =>
      import('../features/mail/routes/undelivered-mail-page').then((m) => ({
        Component: m.UndeliveredMailPage,
      })),
  },
  {
    path: 'renewals',
    handle: { access: PAGE_ACCESS['renewals'] },
    lazy: () =>
      import('../features/billing/routes/renewals-page').then((m) => ({ Component: m.RenewalsPage })),
  },
  // One import page and one page per import for each kind; any other kind is no route at all.
  ...IMPORT_KINDS.flatMap((kind): RouteObject[] => [
    {
      path: `imports/${kind}`,
      handle: { access: PAGE_ACCESS[`imports/${kind}`] },
      lazy: () =>
        import('../features/imports/routes/import-page').then((m) => ({
          element: <m.ImportPage key={kind} kind={kind} />,
        })),
    },
    {
      path: `imports/${kind}/:id`,
      handle: { access: PAGE_ACCESS[`imports/${kind}/:id`] },
      lazy: () =>
        import('../features/imports/routes/import-detail-page').then((m) => ({
          element: <m.ImportDetailPage key={kind} kind={kind} />,
        })),
    },
  ]),
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

/**
 * The top bar's notifications bell, handed to the shell from here: the shell (app/shell) imports no
 * feature. Its code is fetched when the shell first draws it, never with the sign-in screen; the
 * full-screen loading view stays until both are in.
 */
const NotificationsBell = lazy(() =>
  import('../features/notifications/components/notifications-bell').then((m) => ({
    default: m.NotificationsBell,
  })),
);
const signedInShell = <ProtectedLayout topBarActions={<NotificationsBell />} />;

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
      // Signed in, unlike the rest of /auth: where a role that requires two-factor sign-in leads.
      {
        path: TWO_FACTOR_SETUP_PATH,
        element: <TwoFactorSetupLayout />,
        children: [
          {
            index: true,
            lazy: () =>
              import('../features/auth/routes/two-factor-setup-page').then((m) => ({
                Component: m.TwoFactorSetupPage,
              })),
          },
        ],
      },
      { path: '/dashboard', element: signedInShell, children: dashboardChildren },
      { path: '/logindashboard', element: signedInShell, children: dashboardChildren },
      // `/` and any unknown path go to /dashboard.
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
];
