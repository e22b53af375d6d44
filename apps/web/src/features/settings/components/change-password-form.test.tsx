import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, PASSWORD_BANNER_MS, PASSWORD_RULES, type User } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { ChangePasswordForm } from './change-password-form';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ user: null as Pick<User, 'id'> | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

const CURRENT = 'Old-Passw0rd!';
const NEXT = 'N3w-Passw0rd!';

function renderForm() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ChangePasswordForm />
    </QueryClientProvider>,
  );
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
  vi.clearAllMocks();
  localStorage.clear();
  auth.user = { id: 'u1' };
  apiMock.put.mockResolvedValue({ success: true, message: messages.password.changed });
});

describe('change password: rules in SPEC order, one message at a time', () => {
  it('answers each rule in turn and sends nothing until all pass', async () => {
    const user = userEvent.setup();
    renderForm();

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

    expect(apiMock.put).not.toHaveBeenCalled();
  });

  it("clears a field's error as soon as that field is typed in", async () => {
    const user = userEvent.setup();
    renderForm();
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
    renderForm();
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

  it('lists the rules as plain requirements until the user types, without a red error', () => {
    renderForm();
    expect(states()).toEqual(['neutral', 'neutral', 'neutral', 'neutral', 'neutral']);
    expect(screen.queryByText(/\(not met\)/)).toBeNull();
  });

  it('shows met and still-unmet rules while typing, and red errors only after leaving the field', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.type(next(), 'abc');
    // length, upper, lower, digit, special
    expect(states()).toEqual(['unmet', 'unmet', 'met', 'unmet', 'unmet']);
    await user.tab();
    expect(states()).toEqual(['error', 'error', 'met', 'error', 'error']);
  });

  it('shows red errors after a submit attempt, even with nothing typed', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(submit());
    expect(states()).toEqual(['error', 'error', 'error', 'error', 'error']);
  });
});

describe('show/hide toggles', () => {
  it('reveals and hides each password', async () => {
    const user = userEvent.setup();
    renderForm();
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
    let finish: (value: unknown) => void = () => {};
    apiMock.put.mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    const user = userEvent.setup();
    renderForm();
    await fillValid(user);
    await user.click(submit());
    expect(
      (screen.getByRole('button', { name: messages.password.updating }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(apiMock.put).toHaveBeenCalledWith('/auth/users/password', {
      userId: 'u1',
      currentPassword: CURRENT,
      newPassword: NEXT,
    });

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await act(async () => finish({ success: true }));
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
    apiMock.put.mockRejectedValue(
      new ApiError(401, messages.password.currentIncorrect, { success: false, message: 'whatever' }),
    );
    const user = userEvent.setup();
    renderForm();
    await fillValid(user);
    await user.click(submit());
    const message = await screen.findByText(messages.password.currentIncorrect);
    expect(current().getAttribute('aria-invalid')).toBe('true');
    expect(current().getAttribute('aria-describedby')).toBe(message.id);
  });

  it.each([
    [
      'a 400 with a message',
      new ApiError(400, 'x', { success: false, message: 'Server says no' }),
      'Server says no',
    ],
    ['a 400 without one', new ApiError(400, 'x', null), messages.password.invalidFormat],
    [
      'a 429',
      new ApiError(429, 'x', { success: false, message: messages.password.tooManyAttempts }),
      messages.password.tooManyAttempts,
    ],
    ['a 500 without a message', new ApiError(500, 'x', null), messages.password.updateFailed],
    ['no response', new ApiError(null, messages.login.noResponse), messages.password.network],
    ['anything else', new TypeError('boom'), messages.common.unexpectedRetry],
  ])('shows the SPEC message for %s', async (_label, error, expected) => {
    apiMock.put.mockRejectedValue(error);
    const user = userEvent.setup();
    renderForm();
    await fillValid(user);
    await user.click(submit());
    expect(await screen.findByText(expected)).toBeTruthy();
    expect(current().value).toBe(CURRENT);
  });

  it('asks to sign in again when no user id is known', async () => {
    auth.user = null;
    const user = userEvent.setup();
    renderForm();
    await fillValid(user);
    await user.click(submit());
    const alert = await screen.findByText(messages.password.userIdMissing);
    expect(within(alert.closest('[role="alert"]')!).getByText(messages.password.userIdMissing)).toBeTruthy();
    expect(apiMock.put).not.toHaveBeenCalled();
  });

  it('falls back to the stored user id', async () => {
    auth.user = null;
    localStorage.setItem('ID', 'stored-id');
    const user = userEvent.setup();
    renderForm();
    await fillValid(user);
    await user.click(submit());
    await waitFor(() => expect(apiMock.put).toHaveBeenCalled());
    expect(apiMock.put.mock.calls[0]![1]).toMatchObject({ userId: 'stored-id' });
  });
});
