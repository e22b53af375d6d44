import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  messages,
  storageKeys,
  USER_ID_HEADER,
  type SessionUser,
  type SignInChallenge,
} from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { AuthProvider } from '../auth-context';
import { labels } from '../labels';
import { LoginPage } from './login-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), withHeaders: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));

const USER = {
  id: 'u1',
  username: 'asha',
  client: 'Acme',
  isSubscription: true,
  role: { id: 'r1', name: 'super_admin', isSystem: true, permissions: [] },
  twoFactor: { enabled: true, required: true },
} as unknown as SessionUser;

const CHALLENGE: SignInChallenge = {
  twoFactorRequired: true,
  challenge: 'c'.repeat(43),
  expiresAt: '2026-01-01T00:05:00.000Z',
};

/** The server's answers, by path: the password step's and the second step's. */
let answers: Record<string, () => unknown>;

beforeEach(() => {
  vi.clearAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  answers = {
    '/auth/auth-session/login': () => ({ success: true, data: CHALLENGE }),
    '/auth/auth-session/two-factor': () => ({ success: true, data: USER }),
  };
  // The signed-in user, read again once signed in (the test's queries are never fresh).
  apiMock.get.mockImplementation(async (path: string) => {
    if (path === '/auth/auth-session/me') return { success: true, data: USER };
    throw new ApiError(404, 'Not found');
  });
  apiMock.withHeaders.mockImplementation(async (_method: string, path: string) => ({
    body: answers[path]!(),
    headers: new Headers(path.endsWith('two-factor') ? { [USER_ID_HEADER]: USER.id } : {}),
  }));
});

function renderLogin() {
  const router = createMemoryRouter(
    [
      { path: '/auth/login', element: <LoginPage /> },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { initialEntries: ['/auth/login'] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return router;
}

const input = (name: string | RegExp) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const codeField = () => input(labels.authenticationCode);

/** Signs in with the password and waits for the code step. */
async function passwordStep(ui: ReturnType<typeof userEvent.setup>) {
  await ui.type(input('Email or username'), 'asha@acme.test');
  await ui.type(screen.getByLabelText('Password', { selector: 'input' }), 'Secret-Passw0rd!');
  await ui.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByRole('heading', { name: messages.twoFactor.title });
}

function secondStepCalls() {
  return apiMock.withHeaders.mock.calls.filter(([, path]) => path === '/auth/auth-session/two-factor');
}

describe('sign-in with two-factor sign-in on', () => {
  it('asks for a code after the password, then signs in as a one-step sign-in does', async () => {
    const ui = userEvent.setup();
    const router = renderLogin();
    await passwordStep(ui);
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();

    const field = codeField();
    expect(field.getAttribute('inputmode')).toBe('numeric');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(document.activeElement).toBe(field);

    await ui.type(field, '123 456');
    await ui.click(screen.getByRole('button', { name: labels.verify }));
    expect(await screen.findByText('dashboard')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(secondStepCalls()[0]![2]).toEqual({ challenge: CHALLENGE.challenge, code: '123456' });
    expect(localStorage.getItem(storageKeys.userId)).toBe(USER.id);
    expect(localStorage.getItem(storageKeys.role)).toBe('super_admin');
    expect(sessionStorage.getItem(storageKeys.justLoggedIn)).toBe('true');
  });

  it('checks the code before sending it, and takes a recovery code instead', async () => {
    const ui = userEvent.setup();
    renderLogin();
    await passwordStep(ui);
    await ui.click(screen.getByRole('button', { name: labels.verify }));
    expect(await screen.findByText(messages.twoFactor.codeRequired)).toBeTruthy();
    await ui.type(codeField(), 'k7m2q-9xw4c');
    await ui.click(screen.getByRole('button', { name: labels.verify }));
    expect(await screen.findByText(messages.twoFactor.codeFormat)).toBeTruthy();
    expect(secondStepCalls()).toHaveLength(0);

    await ui.click(screen.getByRole('button', { name: labels.useRecoveryCode }));
    const recovery = input(labels.recoveryCode);
    expect(recovery.value).toBe('');
    expect(screen.queryByText(messages.twoFactor.codeFormat)).toBeNull();
    await ui.type(recovery, 'not a code');
    await ui.click(screen.getByRole('button', { name: labels.verify }));
    expect(await screen.findByText(messages.twoFactor.codeOrRecoveryFormat)).toBeTruthy();
    expect(secondStepCalls()).toHaveLength(0);

    await ui.clear(recovery);
    await ui.type(recovery, 'k7m2q-9xw4c');
    await ui.click(screen.getByRole('button', { name: labels.verify }));
    expect(await screen.findByText('dashboard')).toBeTruthy();
    expect(secondStepCalls()[0]![2]).toEqual({ challenge: CHALLENGE.challenge, code: 'k7m2q-9xw4c' });
  });

  it('stays on the code step after a wrong code, with the field emptied and the server’s message', async () => {
    answers['/auth/auth-session/two-factor'] = () => {
      throw new ApiError(401, messages.twoFactor.codeInvalid, {
        success: false,
        message: messages.twoFactor.codeInvalid,
      });
    };
    const ui = userEvent.setup();
    renderLogin();
    await passwordStep(ui);
    await ui.type(codeField(), '000000');
    await ui.click(screen.getByRole('button', { name: labels.verify }));
    expect(await screen.findByText(messages.twoFactor.codeInvalid)).toBeTruthy();
    expect(codeField().value).toBe('');
    expect(screen.getByRole('heading', { name: messages.twoFactor.title })).toBeTruthy();
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();
  });

  it('goes back to the password step when the sign-in has expired, keeping the identifier', async () => {
    answers['/auth/auth-session/two-factor'] = () => {
      throw new ApiError(401, messages.twoFactor.challengeExpired, {
        success: false,
        message: messages.twoFactor.challengeExpired,
      });
    };
    const ui = userEvent.setup();
    renderLogin();
    await passwordStep(ui);
    await ui.type(codeField(), '123456');
    await ui.click(screen.getByRole('button', { name: labels.verify }));
    expect(await screen.findByText(messages.twoFactor.challengeExpired)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    await waitFor(() => expect(input('Email or username').value).toBe('asha@acme.test'));
    expect((screen.getByLabelText('Password', { selector: 'input' }) as HTMLInputElement).value).toBe('');
  });

  it('goes back to the password step on Back', async () => {
    const ui = userEvent.setup();
    renderLogin();
    await passwordStep(ui);
    await ui.click(screen.getByRole('button', { name: labels.back }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(secondStepCalls()).toHaveLength(0);
  });

  it('signs an account without it in at once', async () => {
    answers['/auth/auth-session/login'] = () => ({
      success: true,
      data: { ...USER, twoFactor: { enabled: false, required: false } },
    });
    const ui = userEvent.setup();
    renderLogin();
    await ui.type(input('Email or username'), 'asha');
    await ui.type(screen.getByLabelText('Password', { selector: 'input' }), 'Secret-Passw0rd!');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('dashboard')).toBeTruthy();
    expect(localStorage.getItem(storageKeys.userId)).toBe(USER.id);
    expect(secondStepCalls()).toHaveLength(0);
  });
});
