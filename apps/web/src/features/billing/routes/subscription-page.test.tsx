import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_HEADER, messages, storageKeys, subscriptionTitle } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { ORG_ID, pendingUser } from '../test-utils';
import { renderAt } from '../../../test/render-at';
import { SubscriptionPage } from './subscription-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));

function renderPage(path = `/dashboard/subscription?organizationId=${ORG_ID}`) {
  return renderAt(<SubscriptionPage />, {
    route: '/dashboard/subscription',
    path,
    others: ['/dashboard/inviteuser', '/dashboard/usermanagement', '/dashboard/manualPayment'],
  });
}

const field = (name: string) =>
  screen.getByRole('spinbutton', { name: new RegExp(`^${name}`) }) as HTMLInputElement;
/** A computed amount: text named by its label, not a box to type in. */
const readOnly = (name: string) => {
  expect(screen.queryByRole('textbox', { name })).toBeNull();
  return { value: screen.getByRole('status', { name }).textContent };
};

beforeEach(() => {
  vi.clearAllMocks();
  sessionStorage.clear();
  sessionStorage.setItem(storageKeys.pendingUserData, JSON.stringify(pendingUser));
});

describe('subscription configuration', () => {
  it('shows the title, the back link and live amounts in rupees', async () => {
    const user = userEvent.setup();
    renderPage();
    expect(
      screen.getByRole('heading', { name: subscriptionTitle('acme.admin', 'admin@acme.test') }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back/ }).getAttribute('href')).toBe(
      '/dashboard/usermanagement/invite',
    );
    expect(field('GST percentage').value).toBe('18');

    await user.clear(field('Credits'));
    await user.type(field('Credits'), '100');
    await user.clear(field('Price per credit'));
    await user.type(field('Price per credit'), '150');
    expect(readOnly('Amount').value).toBe('₹15,000.00');
    expect(readOnly('GST amount').value).toBe('₹2,700.00');
    expect(readOnly('Total').value).toBe('₹17,700.00');

    // Invalid GST input becomes 0.
    await user.clear(field('GST percentage'));
    await user.type(field('GST percentage'), '150');
    await user.tab();
    expect(field('GST percentage').value).toBe('0');
    expect(readOnly('Total').value).toBe('₹15,000.00');
  });

  it('offers demo credits 1, 2, 3, 5 and 10 labelled trial/trials', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('combobox', { name: 'Demo credits' }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['1 trial', '2 trials', '3 trials', '5 trials', '10 trials']);
  });

  it('creates user and subscription in one call with an Idempotency-Key, reused on retry', async () => {
    const user = userEvent.setup();
    apiMock.post.mockRejectedValueOnce(new ApiError(null, messages.login.noResponse));
    apiMock.post.mockResolvedValueOnce({ success: true, data: {} });
    renderPage();
    await user.clear(field('Credits'));
    await user.type(field('Credits'), '10');
    await user.clear(field('Price per credit'));
    await user.type(field('Price per credit'), '100');
    const create = screen.getByRole('button', { name: messages.subscription.createUserAndSubscription });

    await user.click(create);
    expect(await screen.findByText(messages.login.noResponse)).toBeTruthy();
    await user.click(create);
    expect(await screen.findByText(messages.subscription.created)).toBeTruthy();

    expect(apiMock.post).toHaveBeenCalledTimes(2);
    const [path, body, options] = apiMock.post.mock.calls[0]!;
    expect(path).toBe('/auth/onboarding');
    expect(body).toEqual({
      user: {
        username: 'acme.admin',
        email: 'admin@acme.test',
        mobileNo: '9876543210',
        client: 'Acme Hiring',
        organizationId: ORG_ID,
        roleId: pendingUser.roleId,
      },
      subscription: {
        totalInterviewCredits: 10,
        interviewCreditsPricePaise: 10_000,
        taxRateBp: 1800,
        subTotalPaise: 100_000,
        discountAmountPaise: 0,
        totalAmountPaise: 100_000,
        taxAmountPaise: 18_000,
        grandTotalAmountPaise: 118_000,
        demoTrials: 1,
      },
    });
    const key = options.headers[IDEMPOTENCY_HEADER];
    expect(key).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(apiMock.post.mock.calls[1]![2].headers[IDEMPOTENCY_HEADER]).toBe(key);
    expect(sessionStorage.getItem(storageKeys.pendingUserData)).toBeNull();
  });

  it('goes to the user list 1.5 s after success', async () => {
    apiMock.post.mockResolvedValue({ success: true, data: {} });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderPage();
    await user.click(screen.getByRole('button', { name: messages.subscription.createUserAndSubscription }));
    await screen.findByText(messages.subscription.created);
    expect(router.state.location.pathname).toBe('/dashboard/subscription');
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(router.state.location.pathname).toBe('/dashboard/usermanagement');
  });

  it("shows the server's message, or the SPEC fallback", async () => {
    const user = userEvent.setup();
    apiMock.post.mockRejectedValueOnce(
      new ApiError(409, messages.users.duplicate, { success: false, message: messages.users.duplicate }),
    );
    apiMock.post.mockRejectedValueOnce(new ApiError(500, '', {}));
    renderPage();
    const create = screen.getByRole('button', { name: messages.subscription.createUserAndSubscription });
    await user.click(create);
    expect(await screen.findByText(messages.users.duplicate)).toBeTruthy();
    await user.click(create);
    expect(await screen.findByText(messages.subscription.createFailed)).toBeTruthy();
  });

  it('Manual Payment stores the subscription data and opens the manual payment page', async () => {
    const user = userEvent.setup();
    const { router } = renderPage();
    await user.click(screen.getByRole('button', { name: messages.subscription.manualPayment }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/manualPayment'));
    const stored = JSON.parse(sessionStorage.getItem(storageKeys.subscriptionData)!);
    expect(stored).toMatchObject({
      organizationId: ORG_ID,
      terms: { totalInterviewCredits: 1, grandTotalAmountPaise: 100 },
    });
    expect(apiMock.post).not.toHaveBeenCalled();
  });

  it('without pending user data: error, then the invite page after 1.5 s', async () => {
    sessionStorage.clear();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = renderPage();
    expect((await screen.findAllByText(messages.subscription.noUserData)).length).toBeGreaterThan(0);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(router.state.location.pathname).toBe('/dashboard/inviteuser');
  });

  it('unreadable pending data: the load error; create is refused with the missing-data message', async () => {
    sessionStorage.setItem(storageKeys.pendingUserData, '{not json');
    const user = userEvent.setup();
    renderPage();
    expect((await screen.findAllByText(messages.subscription.loadUserError)).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: messages.subscription.createUserAndSubscription }));
    expect(await screen.findByText(messages.subscription.missingData)).toBeTruthy();
    expect(apiMock.post).not.toHaveBeenCalled();
  });
});
