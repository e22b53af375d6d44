import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, type HttpResponseResolver } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  loginResultSchema,
  messages,
  sessionUserSchema,
  storageKeys,
  USER_ID_HEADER,
  type SignInChallenge,
} from '@portal/shared';
import { labels } from '../../../components/two-factor/labels';
import { renderAt } from '../../../test/render-at';
import { ok, refusal } from '../../../test/responses';
import { sentRequests, server, setSession } from '../../../test/server';
import { aSuperAdmin } from '../../../test/users';
import { LoginPage } from './login-page';

const USER = aSuperAdmin({ username: 'asha', twoFactor: { enabled: true, required: true } });

const CHALLENGE: SignInChallenge = {
  twoFactorRequired: true,
  challenge: 'c'.repeat(43),
  expiresAt: '2026-01-01T00:05:00.000Z',
};

/** A finished sign-in, as the API answers it: the session starts, and its user is answered. */
function signedIn(user: typeof USER, schema: typeof sessionUserSchema | typeof loginResultSchema) {
  setSession(user);
  return ok(schema, user, { headers: { [USER_ID_HEADER]: user.id } });
}

/** The password step answers a challenge (two-factor sign-in on); the second step signs in. */
function serve(steps: { password?: HttpResponseResolver; secondStep?: HttpResponseResolver } = {}) {
  server.use(
    http.post('/api/auth/auth-session/login', steps.password ?? (() => ok(loginResultSchema, CHALLENGE))),
    http.post(
      '/api/auth/auth-session/two-factor',
      steps.secondStep ?? (() => signedIn(USER, sessionUserSchema)),
    ),
  );
}

beforeEach(() => serve());

function renderLogin() {
  return renderAt('/auth/login', { element: <LoginPage />, others: ['/dashboard'] });
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
  return sentRequests('POST', '/auth/auth-session/two-factor');
}

describe('sign-in with two-factor sign-in on', () => {
  it('asks for a code after the password, then signs in as a one-step sign-in does', async () => {
    const ui = userEvent.setup();
    const { router } = await renderLogin();
    await passwordStep(ui);
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();

    const field = codeField();
    expect(field.getAttribute('inputmode')).toBe('numeric');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(document.activeElement).toBe(field);

    await ui.type(field, '123 456');
    await ui.click(screen.getByRole('button', { name: labels.verify }));
    expect(await screen.findByText('page /dashboard')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(secondStepCalls()[0]!.body).toEqual({ challenge: CHALLENGE.challenge, code: '123456' });
    expect(localStorage.getItem(storageKeys.userId)).toBe(USER.id);
    expect(localStorage.getItem(storageKeys.role)).toBe('super_admin');
    expect(sessionStorage.getItem(storageKeys.justLoggedIn)).toBe('true');
  });

  it('checks the code before sending it, and takes a recovery code instead', async () => {
    const ui = userEvent.setup();
    await renderLogin();
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
    expect(await screen.findByText('page /dashboard')).toBeTruthy();
    expect(secondStepCalls()[0]!.body).toEqual({ challenge: CHALLENGE.challenge, code: 'k7m2q-9xw4c' });
  });

  it('stays on the code step after a wrong code, with the field emptied and the server’s message', async () => {
    serve({ secondStep: () => refusal(401, messages.twoFactor.codeInvalid) });
    const ui = userEvent.setup();
    await renderLogin();
    await passwordStep(ui);
    await ui.type(codeField(), '000000');
    await ui.click(screen.getByRole('button', { name: labels.verify }));
    expect(await screen.findByText(messages.twoFactor.codeInvalid)).toBeTruthy();
    expect(codeField().value).toBe('');
    expect(screen.getByRole('heading', { name: messages.twoFactor.title })).toBeTruthy();
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();
  });

  it('goes back to the password step when the sign-in has expired, keeping the identifier', async () => {
    serve({ secondStep: () => refusal(401, messages.twoFactor.challengeExpired) });
    const ui = userEvent.setup();
    await renderLogin();
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
    await renderLogin();
    await passwordStep(ui);
    await ui.click(screen.getByRole('button', { name: labels.back }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(secondStepCalls()).toHaveLength(0);
  });

  it('signs an account without it in at once', async () => {
    serve({
      password: () =>
        signedIn({ ...USER, twoFactor: { enabled: false, required: false } }, loginResultSchema),
    });
    const ui = userEvent.setup();
    await renderLogin();
    await ui.type(input('Email or username'), 'asha');
    await ui.type(screen.getByLabelText('Password', { selector: 'input' }), 'Secret-Passw0rd!');
    await ui.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('page /dashboard')).toBeTruthy();
    expect(localStorage.getItem(storageKeys.userId)).toBe(USER.id);
    expect(secondStepCalls()).toHaveLength(0);
  });
});
