import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  IDEMPOTENCY_HEADER,
  messages,
  onboardingResultSchema,
  storageKeys,
  subscriptionTitle,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, refusal } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin } from '../../../test/users';
import { labels } from '../labels';
import { onboarded, ORG_ID, pendingUser } from '../test-utils';
import { SubscriptionPage } from './subscription-page';

function renderPage(path = `/dashboard/subscription?organizationId=${ORG_ID}`) {
  return renderAt(path, {
    element: <SubscriptionPage />,
    route: '/dashboard/subscription',
    others: ['/dashboard/inviteuser', '/dashboard/usermanagement', '/dashboard/manualPayment'],
    user: aSuperAdmin(),
  });
}

/** POST /auth/onboarding creating the user and the subscription. */
const onboarding = () =>
  http.post('/api/auth/onboarding', () => ok(onboardingResultSchema, onboarded(), { status: 201 }));

const field = (name: string) =>
  screen.getByRole('spinbutton', { name: new RegExp(`^${name}`) }) as HTMLInputElement;
/** A computed amount: text named by its label, not a box to type in. */
const readOnly = (name: string) => {
  expect(screen.queryByRole('textbox', { name })).toBeNull();
  return { value: screen.getByRole('status', { name }).textContent };
};

beforeEach(() => {
  sessionStorage.setItem(storageKeys.pendingUserData, JSON.stringify(pendingUser));
});

describe('subscription configuration', () => {
  it('shows the title, the back link and live amounts in rupees', async () => {
    const user = userEvent.setup();
    await renderPage();
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
    await renderPage();
    await user.click(screen.getByRole('combobox', { name: 'Demo credits' }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['1 trial', '2 trials', '3 trials', '5 trials', '10 trials']);
  });

  it('creates user and subscription in one call with an Idempotency-Key, reused on retry', async () => {
    const user = userEvent.setup();
    // No answer the first time; the second gets through.
    server.use(
      http.post('/api/auth/onboarding', () => HttpResponse.error(), { once: true }),
      onboarding(),
    );
    await renderPage();
    await user.clear(field('Credits'));
    await user.type(field('Credits'), '10');
    await user.clear(field('Price per credit'));
    await user.type(field('Price per credit'), '100');
    const create = screen.getByRole('button', { name: messages.subscription.createUserAndSubscription });

    await user.click(create);
    expect(await screen.findByText(messages.password.network)).toBeTruthy();
    await user.click(create);
    expect(await screen.findByText(messages.subscription.created)).toBeTruthy();

    const [first, retry] = sentRequests('POST');
    expect(sentRequests('POST').map((r) => r.path)).toEqual(['/auth/onboarding', '/auth/onboarding']);
    expect(first!.body).toEqual({
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
      autoRenew: true,
    });
    expect(retry!.body).toEqual(first!.body);
    const key = first!.headers.get(IDEMPOTENCY_HEADER);
    expect(key).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(retry!.headers.get(IDEMPOTENCY_HEADER)).toBe(key);
    expect(sessionStorage.getItem(storageKeys.pendingUserData)).toBeNull();
  });

  it('renews automatically unless the box is cleared, and the choice reaches the request', async () => {
    const user = userEvent.setup();
    server.use(onboarding());
    await renderPage();
    const box = screen.getByRole('checkbox', { name: labels.autoRenewField }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(screen.getByText(labels.autoRenewFieldHint)).toBeTruthy();
    await user.click(box);
    expect(box.checked).toBe(false);
    await user.click(screen.getByRole('button', { name: messages.subscription.createUserAndSubscription }));
    expect(await screen.findByText(messages.subscription.created)).toBeTruthy();
    expect(lastRequest('POST', '/auth/onboarding').body).toMatchObject({ autoRenew: false });
  });

  it('goes to the user list 1.5 s after success', async () => {
    server.use(onboarding());
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = await renderPage();
    await user.click(screen.getByRole('button', { name: messages.subscription.createUserAndSubscription }));
    await screen.findByText(messages.subscription.created);
    expect(router.state.location.pathname).toBe('/dashboard/subscription');
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(router.state.location.pathname).toBe('/dashboard/usermanagement');
  });

  it("shows the server's message, or with none the API client's own", async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/auth/onboarding', () => refusal(409, messages.users.duplicate), { once: true }),
      http.post('/api/auth/onboarding', () => new HttpResponse(null, { status: 500 })),
    );
    await renderPage();
    const create = screen.getByRole('button', { name: messages.subscription.createUserAndSubscription });
    await user.click(create);
    expect(await screen.findByText(messages.users.duplicate)).toBeTruthy();
    await user.click(create);
    // The error's own text comes before the action's fallback (docs/product.md, "Messages").
    expect(await screen.findByText(messages.common.unexpected)).toBeTruthy();
  });

  it('Manual Payment stores the subscription data and opens the manual payment page', async () => {
    const user = userEvent.setup();
    const { router } = await renderPage();
    await user.click(screen.getByRole('button', { name: messages.subscription.manualPayment }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/manualPayment'));
    const stored = JSON.parse(sessionStorage.getItem(storageKeys.subscriptionData)!);
    expect(stored).toMatchObject({
      organizationId: ORG_ID,
      terms: { totalInterviewCredits: 1, grandTotalAmountPaise: 100 },
      autoRenew: true,
    });
    expect(sentRequests('POST')).toHaveLength(0);
  });

  it('hands a cleared Renew automatically to the manual payment page', async () => {
    const user = userEvent.setup();
    await renderPage();
    await user.click(screen.getByRole('checkbox', { name: labels.autoRenewField }));
    await user.click(screen.getByRole('button', { name: messages.subscription.manualPayment }));
    await screen.findByText('page /dashboard/manualPayment');
    expect(JSON.parse(sessionStorage.getItem(storageKeys.subscriptionData)!)).toMatchObject({
      autoRenew: false,
    });
  });

  it('without pending user data: error, then the invite page after 1.5 s', async () => {
    sessionStorage.clear();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = await renderPage();
    expect((await screen.findAllByText(messages.subscription.noUserData)).length).toBeGreaterThan(0);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(router.state.location.pathname).toBe('/dashboard/inviteuser');
  });

  it('unreadable pending data: the load error; create is refused with the missing-data message', async () => {
    sessionStorage.setItem(storageKeys.pendingUserData, '{not json');
    const user = userEvent.setup();
    await renderPage();
    expect((await screen.findAllByText(messages.subscription.loadUserError)).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: messages.subscription.createUserAndSubscription }));
    expect(await screen.findByText(messages.subscription.missingData)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);
  });
});
