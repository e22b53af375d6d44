import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  computeAmounts,
  IDEMPOTENCY_HEADER,
  messages,
  onboardingResultSchema,
  storageKeys,
} from '@portal/shared';
import { aPayment } from '../../../test/payments';
import { renderAt } from '../../../test/render-at';
import { ok, refusal } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin } from '../../../test/users';
import { labels } from '../labels';
import { onboarded, ORG_ID, pendingUser } from '../test-utils';
import { ManualPaymentPage } from './manual-payment-page';

const amounts = computeAmounts({ credits: 20, pricePerCreditPaise: 25_000, taxRateBp: 1800 });
const terms = {
  totalInterviewCredits: 20,
  interviewCreditsPricePaise: 25_000,
  taxRateBp: 1800,
  subTotalPaise: amounts.subTotalPaise,
  totalAmountPaise: amounts.totalAmountPaise,
  taxAmountPaise: amounts.taxAmountPaise,
  grandTotalAmountPaise: amounts.grandTotalPaise,
  demoTrials: 3,
};

function store(handoff: { autoRenew?: boolean } = { autoRenew: true }) {
  sessionStorage.setItem(storageKeys.pendingUserData, JSON.stringify(pendingUser));
  sessionStorage.setItem(
    storageKeys.subscriptionData,
    JSON.stringify({ organizationId: ORG_ID, terms, pricePerCredit: 250, gstPercent: 18, ...handoff }),
  );
}

function renderPage() {
  return renderAt('/dashboard/manualPayment', {
    element: <ManualPaymentPage />,
    others: ['/dashboard/subscription', '/dashboard/usermanagement'],
    user: aSuperAdmin(),
  });
}

beforeEach(() => {
  server.use(
    http.post('/api/auth/onboarding', () =>
      ok(onboardingResultSchema, onboarded(aPayment({ organizationId: ORG_ID })), { status: 201 }),
    ),
  );
});

/** The body of the onboarding request, the one POST the page sends. */
const sentBody = () =>
  lastRequest('POST', '/auth/onboarding').body as Record<
    'user' | 'subscription' | 'payment' | 'autoRenew',
    unknown
  >;

describe('manual payment', () => {
  it('shows the calculation and the user information', async () => {
    store();
    await renderPage();
    const calc = screen.getByRole('table', { name: 'Payment calculation' });
    expect(calc.textContent).toContain('₹5,000.00');
    expect(calc.textContent).toContain('₹900.00');
    expect(calc.textContent).toContain('₹5,900.00');
    expect(calc.textContent).toContain('3 trials');
    expect(
      within(calc).getByRole('rowheader', { name: labels.renewsAutomatically }).nextSibling?.textContent,
    ).toBe(labels.yes);
    const info = screen.getByRole('table', { name: 'User information' });
    for (const text of ['acme.admin', 'admin@acme.test', '9876543210', 'Acme Hiring']) {
      expect(info.textContent).toContain(text);
    }
    expect(screen.getByRole('link', { name: /Back/ }).getAttribute('href')).toBe(
      '/dashboard/usermanagement/subscription',
    );
    expect((screen.getByRole('combobox', { name: 'Payment method' }) as HTMLElement).textContent).toBe(
      'Bank Transfer',
    );
    const date = screen.getByRole('textbox', { name: 'Payment date' }) as HTMLInputElement;
    expect(date.value).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
  });

  it('defaults the payment date to today in India, day first, whatever the browser’s time zone', async () => {
    // 19:15 UTC on 26 Nov is 00:45 IST on 27 Nov, and still 26 Nov (11/26/2026) in an American browser.
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    vi.useFakeTimers({ now: new Date('2026-11-26T19:15:00Z'), toFake: ['Date'] });
    try {
      expect(new Date().getDate()).toBe(26);
      store();
      await renderPage();
      const date = screen.getByRole('textbox', { name: 'Payment date' }) as HTMLInputElement;
      expect(date.value).toBe('27 Nov 2026');
    } finally {
      process.env.TZ = zone;
    }
  });

  it('reads a typed date day first, shows it the portal’s way and sends the day it names', async () => {
    store();
    const user = userEvent.setup();
    await renderPage();
    const date = screen.getByRole('textbox', { name: 'Payment date' }) as HTMLInputElement;
    await user.type(screen.getByRole('textbox', { name: /Transaction ID/ }), 'UTR-1');
    await user.clear(date);
    await user.type(date, '31/11/2026');
    await user.click(screen.getByRole('button', { name: messages.payment.submit }));
    expect(await screen.findByText(labels.paymentDateInvalid)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);
    await user.clear(date);
    await user.type(date, '3/11/2026');
    await user.tab();
    expect(date.value).toBe('3 Nov 2026');
    await user.click(screen.getByRole('button', { name: messages.payment.submit }));
    expect(await screen.findByText(messages.payment.created)).toBeTruthy();
    expect(sentBody().payment).toMatchObject({ paymentDate: '2026-11-03' });
  });

  it('needs a transaction id', async () => {
    store();
    const user = userEvent.setup();
    await renderPage();
    await user.type(screen.getByRole('textbox', { name: /Transaction ID/ }), '   ');
    await user.click(screen.getByRole('button', { name: messages.payment.submit }));
    expect(await screen.findByText(messages.payment.transactionIdRequired)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);
  });

  it('submits user, subscription and payment in one call, then clears the data and returns to the list', async () => {
    store();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = await renderPage();
    await user.type(screen.getByRole('textbox', { name: /Transaction ID/ }), '  UTR-778899 ');
    await user.click(screen.getByRole('combobox', { name: 'Payment method' }));
    await user.click(screen.getByRole('option', { name: 'UPI' }));
    await user.type(screen.getByRole('textbox', { name: 'Remarks' }), 'Paid in full');
    await user.click(screen.getByRole('button', { name: messages.payment.submit }));
    expect(await screen.findByText(messages.payment.created)).toBeTruthy();

    expect(sentRequests('POST').map((r) => r.path)).toEqual(['/auth/onboarding']);
    const body = sentBody();
    expect(body.user).toMatchObject({ username: 'acme.admin', organizationId: ORG_ID });
    expect(body.subscription).toMatchObject({
      totalInterviewCredits: 20,
      grandTotalAmountPaise: 590_000,
      demoTrials: 3,
    });
    expect(body.payment).toMatchObject({
      transactionId: 'UTR-778899',
      paymentMethod: 'upi',
      remarks: 'Paid in full',
    });
    expect(body.autoRenew).toBe(true);
    expect(lastRequest('POST', '/auth/onboarding').headers.get(IDEMPOTENCY_HEADER)).toBeTruthy();
    expect(sessionStorage.getItem(storageKeys.subscriptionData)).toBeNull();
    expect(sessionStorage.getItem(storageKeys.pendingUserData)).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(router.state.location.pathname).toBe('/dashboard/usermanagement');
  });

  it('sends the subscription step’s Renew automatically choice', async () => {
    const user = userEvent.setup();
    store({ autoRenew: false });
    await renderPage();
    await user.type(screen.getByRole('textbox', { name: /Transaction ID/ }), 'UTR-1');
    await user.click(screen.getByRole('button', { name: messages.payment.submit }));
    expect(await screen.findByText(messages.payment.created)).toBeTruthy();
    expect(sentBody().autoRenew).toBe(false);
  });

  it('reads data stored before the Renew automatically choice existed as off, the API’s default', async () => {
    store({});
    await renderPage();
    const calc = screen.getByRole('table', { name: 'Payment calculation' });
    expect(
      within(calc).getByRole('rowheader', { name: labels.renewsAutomatically }).nextSibling?.textContent,
    ).toBe(labels.no);
  });

  it("shows the server's message on failure, or with none the API client's own", async () => {
    store();
    const user = userEvent.setup();
    server.use(
      http.post('/api/auth/onboarding', () => refusal(409, messages.billing.duplicateTransaction), {
        once: true,
      }),
      http.post('/api/auth/onboarding', () => new HttpResponse(null, { status: 500 })),
    );
    await renderPage();
    await user.type(screen.getByRole('textbox', { name: /Transaction ID/ }), 'T-1');
    await user.click(screen.getByRole('button', { name: messages.payment.submit }));
    expect(await screen.findByText(messages.billing.duplicateTransaction)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: messages.payment.submit }));
    // The error's own text comes before the action's fallback (docs/product.md, "Messages").
    expect(await screen.findByText(messages.common.unexpected)).toBeTruthy();
    // The same submission retried reuses its key.
    const keys = sentRequests('POST', '/auth/onboarding').map((r) => r.headers.get(IDEMPOTENCY_HEADER));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[0]).toBe(keys[1]);
  });

  it('without stored data: the no-data message, then the subscription page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = await renderPage();
    expect((await screen.findAllByText(messages.payment.noData)).length).toBeGreaterThan(0);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(router.state.location.pathname).toBe('/dashboard/subscription');
  });

  it('unreadable data: the load error, and submitting says the data is missing', async () => {
    sessionStorage.setItem(storageKeys.subscriptionData, '{"organizationId":1');
    const user = userEvent.setup();
    await renderPage();
    expect((await screen.findAllByText(messages.payment.loadError)).length).toBeGreaterThan(0);
    await user.type(screen.getByRole('textbox', { name: /Transaction ID/ }), 'T-2');
    await user.click(screen.getByRole('button', { name: messages.payment.submit }));
    expect(await screen.findByText(messages.payment.missingData)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);
  });
});
