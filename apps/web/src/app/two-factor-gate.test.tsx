import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  dashboardSchema,
  messages,
  recoveryCodesSchema,
  storageKeys,
  twoFactorSetupSchema,
  type SessionUser,
} from '@portal/shared';
import { labels } from '../components/two-factor/labels';
import { TwoFactorSetupPage } from '../features/auth/routes/two-factor-setup-page';
import { api } from '../lib/api-client';
import { TWO_FACTOR_SETUP_PATH } from '../lib/session/two-factor-gate';
import { renderAt } from '../test/render-at';
import { done, ok, refusal } from '../test/responses';
import { sentRequests, server, setSession } from '../test/server';
import { aUser } from '../test/users';
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

const asha = aUser({ username: 'asha', role: 'Finance' });
function user(twoFactor: SessionUser['twoFactor']): SessionUser {
  return { ...asha, twoFactor };
}

/** What the API still answers while two-factor sign-in is due: the session, its setup, the settings. */
const OPEN_WHILE_DUE = [
  '/api/auth/auth-session/me',
  '/api/auth/auth-session/logout',
  '/api/auth/two-factor/setup',
  '/api/auth/two-factor/enable',
  '/api/config',
];

/** The server: `me` answers the session's user; the rest is refused while enrolment is due, setup aside. */
let signedIn: SessionUser;
let enrolmentDue: () => boolean;
/** The requests sent, as `METHOD /path`. */
const calls = () => sentRequests().map((r) => `${r.method} ${r.path}`);

beforeEach(() => {
  enrolmentDue = () => signedIn.twoFactor.required && !signedIn.twoFactor.enabled;
  server.use(
    http.all('/api/*', ({ request }) => {
      if (enrolmentDue() && !OPEN_WHILE_DUE.includes(new URL(request.url).pathname))
        return refusal(403, messages.twoFactor.enrolmentRequired);
      // Not refused: on to the route's own handler.
      return undefined;
    }),
    http.post('/api/auth/two-factor/setup', () =>
      ok(twoFactorSetupSchema, { secret: SECRET, otpauthUri: `otpauth://totp/Portal:asha?secret=${SECRET}` }),
    ),
    http.post('/api/auth/two-factor/enable', () => {
      signIn(user({ required: true, enabled: true }));
      return ok(recoveryCodesSchema, { recoveryCodes: CODES }, { message: messages.twoFactor.enabled });
    }),
    http.post('/api/auth/auth-session/logout', () => {
      setSession(null);
      return done();
    }),
    http.get('/api/auth/dashboard', () =>
      ok(dashboardSchema, {
        welcomeMessage: 'Welcome back, asha',
        scope: 'organization',
        stats: [],
        series: {
          kind: 'creditUsage',
          title: messages.dashboard.creditUseByMonth,
          format: 'count',
          points: [],
        },
        recentActivity: [],
      }),
    ),
  );
});

/** The session the API knows, whose user `me` answers. */
function signIn(next: SessionUser) {
  signedIn = next;
  setSession(next);
}

function renderApp(path: string, state?: unknown) {
  return renderAt(path, {
    routes: [
      { path: '/dashboard', element: <ProtectedLayout /> },
      { path: '/dashboard/usermanagement', element: <ProtectedLayout /> },
      {
        path: TWO_FACTOR_SETUP_PATH,
        element: <TwoFactorSetupLayout />,
        children: [{ index: true, element: <TwoFactorSetupPage /> }],
      },
      { path: '/auth/login', element: <p>sign-in page</p> },
    ],
    state,
    user: signedIn,
  });
}

describe('two-factor sign-in required by the role', () => {
  it('leads every page to the setup page, which leads on to the dashboard once set up', async () => {
    signIn(user({ required: true, enabled: false }));
    const { router, queryClient } = await renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: messages.twoFactor.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe(TWO_FACTOR_SETUP_PATH);
    expect(screen.getByText(messages.twoFactor.enrolmentRequired)).toBeTruthy();
    // The shell never loaded, so nothing it reads was asked for.
    expect(calls()).not.toContain('GET /auth/dashboard');

    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: labels.setUp }));
    expect(await screen.findByRole('img', { name: labels.qrTitle })).toBeTruthy();
    await ui.type(screen.getByRole('textbox', { name: labels.authenticationCode }), '123456');
    await ui.click(screen.getByRole('button', { name: labels.confirm }));
    expect(await screen.findByText(CODES[0]!)).toBeTruthy();
    // The signed-in user read again meanwhile (the network coming back) has nothing left to set up:
    // the codes stay on screen all the same, until the user goes on.
    await act(() => queryClient.refetchQueries({ queryKey: ['auth', 'user'] }));
    expect(calls().filter((c) => c === 'GET /auth/auth-session/me')).toHaveLength(2);
    // Time for a redirect to land, were there one.
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(screen.getByText(CODES[0]!)).toBeTruthy();
    expect(router.state.location.pathname).toBe(TWO_FACTOR_SETUP_PATH);

    await ui.click(screen.getByRole('button', { name: labels.continue }));
    expect(await screen.findByText(/dashboard shell/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('goes on to the page asked for once set up, also after a reload of the setup page', async () => {
    signIn(user({ required: true, enabled: false }));
    const { router } = await renderApp('/dashboard/usermanagement?page=2');
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
    signIn(user({ required: true, enabled: true }));
    const { router } = await renderApp(TWO_FACTOR_SETUP_PATH, { from: '//evil.example/x' });
    expect(await screen.findByText(/dashboard shell/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('goes to the setup page when the server refuses a call for want of it', async () => {
    // Read before the role came to require it: the shell shows, and its first call is refused.
    signIn(user({ required: false, enabled: false }));
    enrolmentDue = () => true;
    const { router } = await renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe(TWO_FACTOR_SETUP_PATH));
    expect(calls()).toContain('GET /auth/dashboard');
    expect(await screen.findByRole('button', { name: labels.setUp })).toBeTruthy();
  });

  it('sends a user who has nothing to set up from the setup page to the dashboard', async () => {
    signIn(user({ required: true, enabled: true }));
    const { router } = await renderApp(TWO_FACTOR_SETUP_PATH);
    expect(await screen.findByText(/dashboard shell/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('signs out from the setup page', async () => {
    signIn(user({ required: true, enabled: false }));
    const { router } = await renderApp('/dashboard');
    await userEvent.setup().click(await screen.findByRole('button', { name: labels.signOut }));
    expect(await screen.findByText('sign-in page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(calls()).toContain('POST /auth/auth-session/logout');
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();
  });
});
