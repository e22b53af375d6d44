import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, PASSWORD_BANNER_MS, PASSWORD_RULES, storageKeys, type SessionUser } from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { done, refusal } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aUser } from '../../../test/users';
import { passwordChangeFailure } from '../api/change-password';
import { ChangePasswordForm } from './change-password-form';

const CURRENT = 'Old-Passw0rd!';
const NEXT = 'N3w-Passw0rd!';

/** Signed in as this user; none when null. */
let signedIn: SessionUser | null;

function renderForm() {
  return renderAt('/dashboard/settings', {
    element: <ChangePasswordForm />,
    ...(signedIn && { user: signedIn }),
  });
}

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
const current = () => field(messages.password.currentLabel);
const next = () => field(messages.password.newLabel);
const confirm = () => field(messages.password.confirmLabel);
const submit = () => screen.getByRole('button', { name: messages.password.changePassword });

const ORDERED = [
  messages.password.currentRequired,
  messages.password.newRequired,
  messages.password.confirmRequired,
  messages.password.mismatch,
  messages.password.sameAsCurrent,
  messages.password.weak,
];

/** Exactly one of the rule messages is on screen, and it is `expected`. */
function expectOnly(expected: string) {
  for (const message of ORDERED) {
    if (message === expected) expect(screen.getByText(message)).toBeTruthy();
    else expect(screen.queryByText(message)).toBeNull();
  }
}

async function fill(user: ReturnType<typeof userEvent.setup>, values: [HTMLInputElement, string][]) {
  for (const [input, value] of values) {
    await user.clear(input);
    if (value) {
      await user.click(input);
      await user.paste(value);
    }
  }
}

beforeEach(() => {
  signedIn = aUser();
  server.use(http.put('/api/auth/users/password', () => done(messages.password.changed)));
});

describe('change password: rules in SPEC order, one message at a time', () => {
  it('answers each rule in turn and sends nothing until all pass', async () => {
    const user = userEvent.setup();
    await renderForm();

    await user.click(submit());
    expectOnly(messages.password.currentRequired);

    await fill(user, [[current(), CURRENT]]);
    await user.click(submit());
    expectOnly(messages.password.newRequired);

    await fill(user, [[next(), NEXT]]);
    await user.click(submit());
    expectOnly(messages.password.confirmRequired);

    await fill(user, [[confirm(), 'Different-1!']]);
    await user.click(submit());
    expectOnly(messages.password.mismatch);

    await fill(user, [
      [next(), CURRENT],
      [confirm(), CURRENT],
    ]);
    await user.click(submit());
    expectOnly(messages.password.sameAsCurrent);

    await fill(user, [
      [next(), 'weakpassword'],
      [confirm(), 'weakpassword'],
    ]);
    await user.click(submit());
    expectOnly(messages.password.weak);

    expect(sentRequests('PUT')).toHaveLength(0);
  });

  it("clears a field's error as soon as that field is typed in", async () => {
    const user = userEvent.setup();
    await renderForm();
    await user.click(submit());
    expect(screen.getByText(messages.password.currentRequired)).toBeTruthy();
    await user.type(current(), 'x');
    expect(screen.queryByText(messages.password.currentRequired)).toBeNull();

    await fill(user, [
      [current(), CURRENT],
      [next(), NEXT],
      [confirm(), 'Other-Passw0rd!'],
    ]);
    await user.click(submit());
    expect(screen.getByText(messages.password.mismatch)).toBeTruthy();
    // Typing in another field leaves the error where it is.
    await user.type(current(), 'y');
    expect(screen.getByText(messages.password.mismatch)).toBeTruthy();
    await user.type(confirm(), 'z');
    expect(screen.queryByText(messages.password.mismatch)).toBeNull();
  });
});

describe("the 'Password Must Contain' checklist", () => {
  const ruleState = (id: string) =>
    screen
      .getByText(PASSWORD_RULES.find((r) => r.id === id)!.label)
      .closest('li')!
      .getAttribute('data-met');

  it('turns each rule green as the new password meets it', async () => {
    const user = userEvent.setup();
    await renderForm();
    expect(screen.getByText(messages.password.mustContain)).toBeTruthy();
    for (const rule of PASSWORD_RULES) expect(ruleState(rule.id)).toBe('false');

    await user.type(next(), 'abc');
    expect(ruleState('lower')).toBe('true');
    expect(ruleState('upper')).toBe('false');
    expect(ruleState('length')).toBe('false');

    await user.type(next(), 'DEF12');
    expect(ruleState('upper')).toBe('true');
    expect(ruleState('digit')).toBe('true');
    expect(ruleState('length')).toBe('true');
    expect(ruleState('special')).toBe('false');

    await user.type(next(), '!');
    for (const rule of PASSWORD_RULES) expect(ruleState(rule.id)).toBe('true');
  });
});

describe('the checklist before, while and after typing', () => {
  const states = () =>
    PASSWORD_RULES.map((rule) => screen.getByText(rule.label).closest('li')!.getAttribute('data-state'));

  it('lists the rules as plain requirements until the user types, without a red error', async () => {
    await renderForm();
    expect(states()).toEqual(['neutral', 'neutral', 'neutral', 'neutral', 'neutral']);
    expect(screen.queryByText(/\(not met\)/)).toBeNull();
  });

  it('shows met and still-unmet rules while typing, and red errors only after leaving the field', async () => {
    const user = userEvent.setup();
    await renderForm();
    await user.type(next(), 'abc');
    // length, upper, lower, digit, special
    expect(states()).toEqual(['unmet', 'unmet', 'met', 'unmet', 'unmet']);
    await user.tab();
    expect(states()).toEqual(['error', 'error', 'met', 'error', 'error']);
  });

  it('shows red errors after a submit attempt, even with nothing typed', async () => {
    const user = userEvent.setup();
    await renderForm();
    await user.click(submit());
    expect(states()).toEqual(['error', 'error', 'error', 'error', 'error']);
  });
});

describe('show/hide toggles', () => {
  it('reveals and hides each password', async () => {
    const user = userEvent.setup();
    await renderForm();
    expect(current().type).toBe('password');
    await user.click(
      screen.getByRole('button', { name: `Show ${messages.password.currentLabel.toLowerCase()}` }),
    );
    expect(current().type).toBe('text');
    await user.click(
      screen.getByRole('button', { name: `Hide ${messages.password.currentLabel.toLowerCase()}` }),
    );
    expect(current().type).toBe('password');
    expect(
      screen.getByRole('button', { name: `Show ${messages.password.newLabel.toLowerCase()}` }),
    ).toBeTruthy();
    expect(
      screen.getByRole('button', { name: `Show ${messages.password.confirmLabel.toLowerCase()}` }),
    ).toBeTruthy();
  });
});

describe('sending', () => {
  async function fillValid(user: ReturnType<typeof userEvent.setup>) {
    await fill(user, [
      [current(), CURRENT],
      [next(), NEXT],
      [confirm(), NEXT],
    ]);
  }

  it("shows 'Updating...' while busy, then the success banner for 3 s with the fields emptied", async () => {
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    server.use(
      http.put('/api/auth/users/password', async () => {
        await finished;
        return done(messages.password.changed);
      }),
    );
    const user = userEvent.setup();
    await renderForm();
    await fillValid(user);
    await user.click(submit());
    expect(
      (screen.getByRole('button', { name: messages.password.updating }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await waitFor(() =>
      expect(lastRequest('PUT', '/auth/users/password').body).toEqual({
        userId: signedIn!.id,
        currentPassword: CURRENT,
        newPassword: NEXT,
      }),
    );

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await act(async () => finish());
    expect(await screen.findByText(messages.password.changed)).toBeTruthy();
    expect(current().value).toBe('');
    expect(next().value).toBe('');
    expect(confirm().value).toBe('');
    expect((submit() as HTMLButtonElement).disabled).toBe(false);

    await act(async () => vi.advanceTimersByTime(PASSWORD_BANNER_MS - 100));
    expect(screen.getByText(messages.password.changed)).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(200));
    expect(screen.queryByText(messages.password.changed)).toBeNull();
  });

  it('puts a 401 under the current password field', async () => {
    server.use(http.put('/api/auth/users/password', () => refusal(401, 'whatever')));
    const user = userEvent.setup();
    await renderForm();
    await fillValid(user);
    await user.click(submit());
    const message = await screen.findByText(messages.password.currentIncorrect);
    expect(current().getAttribute('aria-invalid')).toBe('true');
    expect(current().getAttribute('aria-describedby')).toBe(message.id);
    // A 401 refreshes the session once and is sent again (lib/api-client.ts).
    expect(sentRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /auth/auth-session/me',
      'PUT /auth/users/password',
      'POST /auth/auth-session/refresh-token',
      'PUT /auth/users/password',
    ]);
  });

  it.each([
    ['a 400 with a message', () => refusal(400, 'Server says no'), 'Server says no'],
    ['a 400 without one', () => new HttpResponse(null, { status: 400 }), messages.password.invalidFormat],
    ['a 429', () => refusal(429, messages.password.tooManyAttempts), messages.password.tooManyAttempts],
    [
      'a 500 without a message',
      () => new HttpResponse(null, { status: 500 }),
      messages.password.updateFailed,
    ],
    ['no response', () => HttpResponse.error(), messages.password.network],
  ])('shows the SPEC message for %s', async (_label, answer, expected) => {
    server.use(http.put('/api/auth/users/password', answer));
    const user = userEvent.setup();
    await renderForm();
    await fillValid(user);
    await user.click(submit());
    expect(await screen.findByText(expected)).toBeTruthy();
    expect(current().value).toBe(CURRENT);
  });

  it('shows the SPEC message for anything but an answer of the API', () => {
    // The API client turns every answer, and the lack of one, into an ApiError: this one cannot be sent.
    expect(passwordChangeFailure(new TypeError('boom'))).toEqual({
      message: messages.common.unexpectedRetry,
    });
  });

  it('asks to sign in again when no user id is known', async () => {
    signedIn = null;
    const user = userEvent.setup();
    await renderForm();
    await fillValid(user);
    await user.click(submit());
    const alert = await screen.findByText(messages.password.userIdMissing);
    expect(within(alert.closest('[role="alert"]')!).getByText(messages.password.userIdMissing)).toBeTruthy();
    expect(sentRequests('PUT')).toHaveLength(0);
  });

  it('falls back to the stored user id', async () => {
    // A stored session whose user could not be read (the server was down): kept, with no user.
    signedIn = null;
    localStorage.setItem(storageKeys.userId, 'stored-id');
    server.use(http.get('/api/auth/auth-session/me', () => refusal(503, 'Service unavailable')));
    const user = userEvent.setup();
    await renderForm();
    await fillValid(user);
    await user.click(submit());
    expect(await screen.findByText(messages.password.changed)).toBeTruthy();
    expect(lastRequest('PUT', '/auth/users/password').body).toMatchObject({ userId: 'stored-id' });
  });
});
