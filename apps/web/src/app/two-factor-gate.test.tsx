import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, storageKeys, type SessionUser } from '@portal/shared';
import { api } from '../lib/api-client';
import { AuthProvider } from '../features/auth/auth-context';
import { labels } from '../features/auth/labels';
import { TwoFactorSetupPage } from '../features/auth/routes/two-factor-setup-page';
import { TWO_FACTOR_SETUP_PATH } from '../features/auth/two-factor-gate';
import { ProtectedLayout, TwoFactorSetupLayout } from './guard';

// The shell reads the dashboard's figures, which the server refuses until two-factor sign-in is set up.
vi.mock('./shell/dashboard-layout', () => ({
  DashboardLayout: function Shell() {
    const figures = useQuery({ queryKey: ['figures'], queryFn: () => api.get('/auth/dashboard') });
    return <p>dashboard shell {figures.isError ? '(refused)' : ''}</p>;
  },
}));

const SECRET = 'JBSWY3DPEHPK3PXP';
const CODES = ['k7m2q-9xw4c', 'a2b3c-d4e5f'];

function user(twoFactor: SessionUser['twoFactor']): SessionUser {
  return {
    id: 'u1',
    username: 'asha',
    client: 'Acme',
    isSubscription: true,
    role: { id: 'r1', name: 'Finance', isSystem: false, permissions: [] },
    twoFactor,
  } as unknown as SessionUser;
}

/** The server: `me` answers `signedIn`; the rest is refused while enrolment is due, setup aside. */
let signedIn: SessionUser;
let enrolmentDue: () => boolean;
const calls: string[] = [];

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  localStorage.clear();
  calls.length = 0;
  localStorage.setItem(storageKeys.userId, 'u1');
  enrolmentDue = () => signedIn.twoFactor.required && !signedIn.twoFactor.enabled;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.replace(/^\/api/, '');
      calls.push(`${init.method} ${path}`);
      if (path === '/auth/auth-session/me') return json(200, { success: true, data: signedIn });
      if (path === '/auth/two-factor/setup')
        return json(200, {
          success: true,
          data: { secret: SECRET, otpauthUri: `otpauth://totp/Portal:asha?secret=${SECRET}` },
        });
      if (path === '/auth/two-factor/enable') {
        signedIn = user({ required: true, enabled: true });
        return json(200, {
          success: true,
          data: { recoveryCodes: CODES },
          message: messages.twoFactor.enabled,
        });
      }
      // Public, as the sign-in screens' test-mode marker reads it.
      if (path === '/config') return json(200, { success: true, data: { paymentProvider: 'razorpay' } });
      if (enrolmentDue())
        return json(403, {
          success: false,
          message: messages.twoFactor.enrolmentRequired,
          errors: {},
        });
      return json(200, { success: true, data: {} });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderApp(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <ProtectedLayout /> },
      { path: '/dashboard/usermanagement', element: <ProtectedLayout /> },
      {
        path: TWO_FACTOR_SETUP_PATH,
        element: <TwoFactorSetupLayout />,
        children: [{ index: true, element: <TwoFactorSetupPage /> }],
      },
      { path: '/auth/login', element: <p>sign-in page</p> },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <SnackbarProvider>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

describe('two-factor sign-in required by the role', () => {
  it('leads every page to the setup page, which leads on to the dashboard once set up', async () => {
    signedIn = user({ required: true, enabled: false });
    const { router, queryClient } = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: messages.twoFactor.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe(TWO_FACTOR_SETUP_PATH);
    expect(screen.getByText(messages.twoFactor.enrolmentRequired)).toBeTruthy();
    // The shell never loaded, so nothing it reads was asked for.
    expect(calls).not.toContain('GET /auth/dashboard');

    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: labels.setUp }));
    expect(await screen.findByRole('img', { name: labels.qrTitle })).toBeTruthy();
    await ui.type(screen.getByRole('textbox', { name: labels.authenticationCode }), '123456');
    await ui.click(screen.getByRole('button', { name: labels.confirm }));
    expect(await screen.findByText(CODES[0]!)).toBeTruthy();
    // The signed-in user read again meanwhile (the network coming back) has nothing left to set up:
    // the codes stay on screen all the same, until the user goes on.
    await act(() => queryClient.refetchQueries({ queryKey: ['auth', 'user'] }));
    expect(calls.filter((c) => c === 'GET /auth/auth-session/me')).toHaveLength(2);
    // Time for a redirect to land, were there one.
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(screen.getByText(CODES[0]!)).toBeTruthy();
    expect(router.state.location.pathname).toBe(TWO_FACTOR_SETUP_PATH);

    await ui.click(screen.getByRole('button', { name: labels.continue }));
    expect(await screen.findByText(/dashboard shell/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('goes on to the page asked for once set up, also after a reload of the setup page', async () => {
    signedIn = user({ required: true, enabled: false });
    const { router } = renderApp('/dashboard/usermanagement?page=2');
    expect(await screen.findByRole('button', { name: labels.setUp })).toBeTruthy();
    expect(router.state.location.pathname).toBe(TWO_FACTOR_SETUP_PATH);
    // A reload keeps the history entry's state; the router reads it back as it was.
    await act(() =>
      router.navigate(TWO_FACTOR_SETUP_PATH, { replace: true, state: router.state.location.state }),
    );

    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: labels.setUp }));
    await ui.type(await screen.findByRole('textbox', { name: labels.authenticationCode }), '123456');
    await ui.click(screen.getByRole('button', { name: labels.confirm }));
    await ui.click(await screen.findByRole('button', { name: labels.continue }));
    expect(await screen.findByText(/dashboard shell/)).toBeTruthy();
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/dashboard/usermanagement?page=2',
    );
  });

  it('never goes on to another site or to the sign-in screens from the setup page', async () => {
    signedIn = user({ required: true, enabled: true });
    const router = createMemoryRouter(
      [
        { path: '/dashboard', element: <ProtectedLayout /> },
        {
          path: TWO_FACTOR_SETUP_PATH,
          element: <TwoFactorSetupLayout />,
          children: [{ index: true, element: <TwoFactorSetupPage /> }],
        },
      ],
      { initialEntries: [{ pathname: TWO_FACTOR_SETUP_PATH, state: { from: '//evil.example/x' } }] },
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <SnackbarProvider>
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
        </SnackbarProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText(/dashboard shell/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('goes to the setup page when the server refuses a call for want of it', async () => {
    // Read before the role came to require it: the shell shows, and its first call is refused.
    signedIn = user({ required: false, enabled: false });
    enrolmentDue = () => true;
    const { router } = renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe(TWO_FACTOR_SETUP_PATH));
    expect(calls).toContain('GET /auth/dashboard');
    expect(await screen.findByRole('button', { name: labels.setUp })).toBeTruthy();
  });

  it('sends a user who has nothing to set up from the setup page to the dashboard', async () => {
    signedIn = user({ required: true, enabled: true });
    const { router } = renderApp(TWO_FACTOR_SETUP_PATH);
    expect(await screen.findByText(/dashboard shell/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('signs out from the setup page', async () => {
    signedIn = user({ required: true, enabled: false });
    const { router } = renderApp('/dashboard');
    await userEvent.setup().click(await screen.findByRole('button', { name: labels.signOut }));
    expect(await screen.findByText('sign-in page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(calls).toContain('POST /auth/auth-session/logout');
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();
  });
});
