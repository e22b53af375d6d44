import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  activityItemSchema,
  apiKeySchema,
  billingPlanSchema,
  billingPlanViewSchema,
  createdApiKeySchema,
  creditSummarySchema,
  ledgerEntrySchema,
  MANDATE_AUTHORIZATION_PAISE,
  mandateOrderSchema,
  messages,
  orderCreatedSchema,
  paymentVerifiedSchema,
  renewalSchema,
  SANDBOX_DECLINED_CARD,
  storageKeys,
  SUBSCRIPTION_TIMELINE_ENTITIES,
  verifyPaymentBodySchema,
  type ActivityItem,
  type BillingPlanView,
  type MandateOrder,
  type PaymentOrder,
  type SessionUser,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, page, pageOf, refusal } from '../../../test/responses';
import { configHandler, lastRequest, sentRequests, server } from '../../../test/server';
import { aUser, permission } from '../../../test/users';
import { aPayment } from '../../../test/payments';
import { setViewportWidth } from '../../../test/viewport';
import { labels, planStatusLabels } from '../labels';
import { anEvent, aPlan, aRenewal, aSubscription, ORG_ID, renewalId } from '../test-utils';
import { BillingPage } from './billing-page';

/** Subscription Management with `scopes`, and Dashboard READ (the activity feed: the plan's history). */
function tenantAdmin(scopes: ('READ' | 'CREATE')[]): SessionUser {
  return aUser({
    username: 'tenant',
    role: 'admin',
    organizationId: ORG_ID,
    permissions: [permission('subscriptions', scopes), permission('dashboard', ['READ'])],
  });
}

let balance = 12;
/** What GET /auth/billing-plan answers; handlers that change the plan change it here. */
let planView: BillingPlanView;
/** The organization's subscription timeline, newest first, as GET /auth/activities answers it. */
let events: ActivityItem[];
const BANK_REFUSAL = 'Declined by the bank: insufficient funds in the account (code 51)';

function freshPlanView(): BillingPlanView {
  return {
    plan: aPlan(),
    renewals: [
      aRenewal(3, { status: 'notified', noticeSentAt: '2030-02-27T00:00:00.000Z' }),
      aRenewal(2, {
        status: 'failed',
        noticeSentAt: '2030-01-30T00:00:00.000Z',
        attempts: 2,
        lastError: BANK_REFUSAL,
      }),
      aRenewal(1, { status: 'charged', noticeSentAt: '2029-12-30T00:00:00.000Z', attempts: 1 }),
    ],
  };
}

const order: PaymentOrder = {
  id: 'o1',
  organizationId: ORG_ID,
  provider: 'sandbox',
  providerOrderId: 'order_ABCDEFGHIJKLMN',
  credits: 5,
  amountPaise: 59_000,
  currency: 'INR',
  receipt: 'rcpt_1',
  status: 'order_created',
  paymentId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const checkout = {
  razorpay_order_id: order.providerOrderId,
  razorpay_payment_id: 'pay_ABCDEFGHIJKLMN',
  razorpay_signature: 'f'.repeat(64),
};

function serve() {
  server.use(
    http.get('/api/auth/billing-plan', () => ok(billingPlanViewSchema, planView)),
    http.get('/api/auth/activities', ({ request }) => pageOf(activityItemSchema, events, request)),
    http.get('/api/auth/credits', () =>
      ok(creditSummarySchema, {
        organizationId: ORG_ID,
        balance,
        // Running now, and a month bought ahead (a top-up) that starts when it ends.
        subscription: aSubscription({ id: 's1' }),
        upcoming: [
          aSubscription({
            id: 's2',
            totalInterviewCredits: 1500,
            validFrom: '2030-02-01T00:00:00.000Z',
            validUntil: '2030-03-01T00:00:00.000Z',
            grandTotalAmountPaise: 17_700_000,
          }),
        ],
        entries: [],
      }),
    ),
    http.get('/api/auth/credits/ledger', () =>
      page(
        ledgerEntrySchema,
        [
          {
            id: 'l1',
            delta: 10,
            reason: 'subscription',
            reference: 'subscription:256bcd22-0000-4000-8000-000000000001',
            note: null,
            subscriptionId: '256bcd22-0000-4000-8000-000000000001',
            paymentId: 'p-manual',
            createdAt: '2025-01-01T00:00:00.000Z',
          },
          {
            id: 'l0',
            delta: 3,
            reason: 'demo_trial',
            reference: 'demo:256bcd22-0000-4000-8000-000000000001',
            note: '3 demo trials',
            subscriptionId: '256bcd22-0000-4000-8000-000000000001',
            paymentId: null,
            createdAt: '2025-01-01T00:00:00.000Z',
          },
          {
            id: 'l3',
            delta: 5,
            reason: 'purchase',
            reference: 'pay_Abc123Def456Gh',
            note: 'Bought 5 credits online',
            subscriptionId: null,
            paymentId: 'p-online',
            createdAt: '2025-01-03T00:00:00.000Z',
          },
          {
            id: 'l4',
            delta: -2,
            reason: 'refund',
            reference: 'rfnd_Xyz987',
            note: 'Refund rfnd_Xyz987: credit note CN/2025-26/0001',
            subscriptionId: null,
            paymentId: 'p-online',
            createdAt: '2025-01-04T00:00:00.000Z',
          },
          {
            id: 'l2',
            delta: -1,
            reason: 'usage',
            reference: 'interview-7',
            note: null,
            subscriptionId: null,
            paymentId: null,
            createdAt: '2025-01-02T00:00:00.000Z',
          },
        ],
        { pageSize: 10 },
      ),
    ),
    http.get('/api/auth/api-keys', () =>
      page(
        apiKeySchema,
        [
          {
            id: 'k1',
            organizationId: ORG_ID,
            name: 'Bot',
            prefix: 'icp_abcdefgh',
            createdAt: '2025-01-01T00:00:00.000Z',
            lastUsedAt: null,
            revokedAt: null,
          },
        ],
        { pageSize: 100 },
      ),
    ),
    http.post('/api/admin/payment/order', async ({ request }) => {
      const { credits } = (await request.json()) as { credits: number };
      return ok(
        orderCreatedSchema,
        {
          status: 'order_created',
          message: messages.payment.orderCreated,
          order: { ...order, credits },
          checkout: {
            provider: 'sandbox',
            keyId: null,
            name: 'Portal',
            description: 'Credits',
            currency: 'INR',
          },
        },
        { status: 201 },
      );
    }),
    http.post('/api/admin/payment/sandbox/pay', () => ok(verifyPaymentBodySchema, checkout)),
    http.post('/api/admin/payment/verify', () => {
      balance += 5;
      return ok(paymentVerifiedSchema, {
        status: 'payment_verified',
        message: messages.payment.verified,
        order: { ...order, status: 'payment_verified' },
        payment: aPayment({
          organizationId: ORG_ID,
          subscriptionId: null,
          amountPaise: order.amountPaise,
          providerPaymentId: checkout.razorpay_payment_id,
          providerOrderId: order.providerOrderId,
          paymentStatus: 'CAPTURED',
          paymentMethod: 'ONLINE',
        }),
        creditBalance: balance,
      });
    }),
    http.post('/api/auth/api-keys', async ({ request }) => {
      const { name } = (await request.json()) as { name: string };
      return ok(
        createdApiKeySchema,
        {
          id: 'k2',
          organizationId: ORG_ID,
          name,
          prefix: 'icp_newkey00',
          key: 'icp_newkey0000secret',
          createdAt: '2025-01-03T00:00:00.000Z',
          lastUsedAt: null,
          revokedAt: null,
        },
        { status: 201 },
      );
    }),
  );
}

let signedIn: SessionUser;

function renderPage() {
  return renderAt('/dashboard/billing', { element: <BillingPage />, user: signedIn });
}

beforeEach(() => {
  balance = 12;
  planView = freshPlanView();
  events = [];
  signedIn = tenantAdmin(['READ', 'CREATE']);
  serve();
});

describe('billing page', () => {
  it('shows the balance, the subscription, the ledger and the API keys', async () => {
    await renderPage();
    expect((await screen.findByTestId('credit-balance')).textContent).toBe('12');
    expect(screen.getByText(/^Active · Monthly · 10 credits$/)).toBeTruthy();
    // The period running now, not the one bought for later, which is listed as upcoming.
    expect(screen.getByTestId('current-period').textContent).toBe('Period: 1 Jan 2030 – 1 Feb 2030');
    const next = within(screen.getByRole('list', { name: 'Upcoming (paid ahead)' })).getAllByRole('listitem');
    expect(next.map((li) => li.textContent)).toEqual([
      '1 Feb 2030 – 1 Mar 2030 · 1,500 credits · ₹1,77,000.00',
    ]);
    const ledger = await screen.findByRole('table', { name: 'Credit history' });
    expect(within(ledger).getByText('interview-7')).toBeTruthy();
    expect(within(ledger).getByText('-1')).toBeTruthy();
    // What each entry is, with the number the customer knows it by, never the internal reference.
    const entryOf = (id: string) => {
      const row = within(ledger).getAllByRole('row')[['l1', 'l0', 'l3', 'l4', 'l2'].indexOf(id) + 1]!;
      return within(row).getAllByRole('cell')[2]!.textContent;
    };
    expect(entryOf('l1')).toBe('Manual payment');
    expect(entryOf('l0')).toBe('Onboarding');
    expect(entryOf('l2')).toMatch(/^Interview.*interview-7/);
    expect(entryOf('l3')).toMatch(/^Payment.*pay_Abc123Def456Gh/);
    expect(entryOf('l4')).toMatch(/^Refund.*rfnd_Xyz987/);
    expect(ledger.textContent).not.toMatch(/subscription:|demo:|256bcd22/);
    const keys = await screen.findByRole('table', { name: 'API keys' });
    expect(within(keys).getByText('icp_abcdefgh…')).toBeTruthy();
  });

  it('buys credits through the sandbox checkout: order → pay → verify → the balance rises', async () => {
    const user = userEvent.setup();
    await renderPage();
    await screen.findByTestId('credit-balance');
    const count = screen.getByRole('spinbutton', { name: 'Credits to buy' });
    await user.clear(count);
    await user.type(count, '5');
    expect(screen.getByText('₹590.00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Buy credits' }));
    expect(await screen.findByText(messages.payment.orderCreated)).toBeTruthy();
    const dialog = await screen.findByRole('dialog', { name: 'Test checkout' });
    await user.click(within(dialog).getByRole('button', { name: /Pay/ }));
    expect(await screen.findByText(messages.payment.verified)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('17'));

    expect(sentRequests('POST').map((r) => [r.path, r.body])).toEqual([
      ['/admin/payment/order', { credits: 5 }],
      [
        '/admin/payment/sandbox/pay',
        { razorpay_order_id: order.providerOrderId, cardNumber: '4111111111111111' },
      ],
      ['/admin/payment/verify', checkout],
    ]);
    expect(localStorage.getItem(storageKeys.paymentId)).toBe(checkout.razorpay_payment_id);
  });

  it('says so when the order fails without a message of its own', async () => {
    const user = userEvent.setup();
    // A gateway's refusal: no message of the API's own, so the API client's own text is shown (the
    // error's own text comes before the action's fallback, docs/product.md "Messages").
    server.use(http.post('/api/admin/payment/order', () => new HttpResponse(null, { status: 502 })));
    await renderPage();
    await screen.findByTestId('credit-balance');
    await user.click(screen.getByRole('button', { name: 'Buy credits' }));
    expect(await screen.findByText(messages.common.unexpected)).toBeTruthy();
    expect(screen.queryByText(messages.payment.orderCreated)).toBeNull();
  });

  it('creates an API key and shows it once', async () => {
    const user = userEvent.setup();
    await renderPage();
    await screen.findByRole('table', { name: 'API keys' });
    await user.type(screen.getByRole('textbox', { name: 'Key name' }), 'Interview bot');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect((within(dialog).getByRole('textbox') as HTMLInputElement).value).toBe('icp_newkey0000secret');
    expect(lastRequest('POST', '/auth/api-keys').body).toEqual({ name: 'Interview bot' });
  });

  it('a reader sees no buy button and cannot manage keys', async () => {
    signedIn = tenantAdmin(['READ']);
    await renderPage();
    await screen.findByTestId('credit-balance');
    expect(screen.queryByRole('button', { name: 'Buy credits' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create key' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
  });
});

const MARCH = '1 Mar 2030 – 1 Apr 2030';
const FEBRUARY = '1 Feb 2030 – 1 Mar 2030';

/** The value beside a term of the plan's terms. */
function planTerm(term: string): string | null | undefined {
  return screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
}

/** The renewal row's action menu, opened. */
async function openRenewalActions(period: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: labels.renewalActionsFor(period) }));
  return screen.findByRole('menu');
}

function renewalCells(row: number) {
  const table = screen.getByRole('table', { name: labels.latestRenewals });
  return within(within(table).getAllByRole('row')[row]!)
    .getAllByRole('cell')
    .map((c) => c.textContent);
}

describe('plan and renewals', () => {
  it('shows the plan’s terms and its latest renewals, with the controls of a manager', async () => {
    await renderPage();
    expect(await screen.findByRole('heading', { name: labels.planTitle })).toBeTruthy();
    await screen.findByText(labels.creditsPerMonth);
    expect(planTerm(labels.creditsPerMonth)).toBe('10');
    expect(planTerm(labels.planPricePerCredit)).toBe('₹100.00');
    expect(planTerm(labels.gst)).toBe('18%');
    expect(planTerm(labels.amountPerMonth)).toBe('₹1,180.00');
    expect(planTerm(labels.currentPeriod)).toBe(FEBRUARY);
    expect(planTerm(labels.nextRenewal)).toBe('1 Mar 2030');
    expect(planTerm(labels.paidBy)).toBe(labels.paidManually);
    expect(planTerm(labels.planStatus)).toBe(planStatusLabels.active);
    // Without a rollover cap, unused credits never expire.
    expect(planTerm(labels.unusedCredits)).toBe(labels.neverExpire);
    // Nothing owed, nothing said of it.
    expect(screen.queryByText(labels.owed, { selector: 'dt' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    const autoRenew = screen.getByRole('switch', { name: labels.autoRenew }) as HTMLInputElement;
    expect(autoRenew.checked).toBe(true);

    const table = screen.getByRole('table', { name: labels.latestRenewals });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Period', 'Amount', 'Status', 'Notice sent', 'Attempts', 'Last error', 'Actions']);
    expect(renewalCells(1).slice(0, 6)).toEqual([
      MARCH,
      '₹1,180.00',
      'Debit announced',
      '27 Feb 2030',
      '0',
      '—',
    ]);
    expect(renewalCells(2).slice(0, 6)).toEqual([
      FEBRUARY,
      '₹1,180.00',
      'Declined',
      '30 Jan 2030',
      '2',
      BANK_REFUSAL,
    ]);
    expect(renewalCells(3).slice(0, 3)).toEqual(['1 Jan 2030 – 1 Feb 2030', '₹1,180.00', 'Charged']);

    // Each row offers what its status allows: an announced debit is skipped, a declined one paid now.
    let menu = await openRenewalActions(MARCH);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual([labels.skipDebit]);
    await userEvent.setup().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    menu = await openRenewalActions(FEBRUARY);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual([labels.payNow]);
    // A charged renewal has nothing left to do.
    expect(
      screen.queryByRole('button', {
        name: labels.renewalActionsFor('1 Jan 2030 – 1 Feb 2030'),
        hidden: true,
      }),
    ).toBeNull();
  });

  it('shows a reader the same plan, without the switch, the mandate, Change plan or the row actions', async () => {
    server.use(configHandler('sandbox'));
    signedIn = tenantAdmin(['READ']);
    await renderPage();
    await screen.findByText(labels.creditsPerMonth);
    expect(screen.getByTestId('auto-renew').textContent).toBe(`${labels.autoRenew}: ${labels.on}`);
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('button', { name: labels.setUpMandate })).toBeNull();
    expect(screen.queryByRole('button', { name: labels.changePlan })).toBeNull();
    // The history is read-only: a reader sees it too.
    expect(await screen.findByText(labels.historyEmpty)).toBeTruthy();
    const table = screen.getByRole('table', { name: labels.latestRenewals });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).queryAllByRole('button')).toHaveLength(0);
    expect(within(table).queryByRole('columnheader', { name: labels.actions })).toBeNull();
  });

  it('says what is owed while the plan is past due, and when it is suspended', async () => {
    planView = {
      ...planView,
      plan: aPlan({ status: 'past_due', pastDueSince: '2030-02-01T00:00:00.000Z', owedPaise: 118_000 }),
    };
    const { unmount } = await renderPage();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(messages.renewals.pastDueTitle)).toBeTruthy();
    expect(alert.textContent).toContain(labels.pastDueBody('₹1,180.00', '1 Feb 2030'));
    expect(planTerm(labels.planStatus)).toBe(planStatusLabels.past_due);
    expect(planTerm(labels.owed)).toBe('₹1,180.00');
    unmount();

    planView = { ...planView, plan: aPlan({ status: 'suspended', owedPaise: 236_000 }) };
    await renderPage();
    const suspended = await screen.findByRole('alert');
    expect(within(suspended).getByText(messages.renewals.suspendedTitle)).toBeTruthy();
    expect(suspended.textContent).toContain(labels.suspendedBody('₹2,360.00'));
  });

  it('says the organization has no plan yet, with no figures', async () => {
    planView = { plan: null, renewals: [] };
    await renderPage();
    expect(await screen.findByText(messages.renewals.planNotFound)).toBeTruthy();
    expect(screen.queryByText(labels.creditsPerMonth)).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('table', { name: labels.latestRenewals })).toBeNull();
  });

  it('turns automatic renewal off and says so, then shows the plan ending', async () => {
    server.use(
      http.put('/api/auth/billing-plan', async ({ request }) => {
        const { autoRenew } = (await request.json()) as { autoRenew: boolean };
        planView = { ...planView, plan: aPlan({ autoRenew }) };
        return ok(billingPlanSchema, planView.plan!);
      }),
    );
    const user = userEvent.setup();
    await renderPage();
    await user.click(await screen.findByRole('switch', { name: labels.autoRenew }));
    expect(await screen.findByText(messages.renewals.autoRenewOff)).toBeTruthy();
    expect(lastRequest('PUT', '/auth/billing-plan').body).toEqual({ autoRenew: false });
    await waitFor(() => expect(planTerm(labels.nextRenewal)).toBe(labels.endsOn('1 Mar 2030')));
    expect((screen.getByRole('switch', { name: labels.autoRenew }) as HTMLInputElement).checked).toBe(false);

    await user.click(screen.getByRole('switch', { name: labels.autoRenew }));
    expect(await screen.findByText(messages.renewals.autoRenewOn)).toBeTruthy();
    expect(lastRequest('PUT', '/auth/billing-plan').body).toEqual({ autoRenew: true });
  });

  it('skips an announced debit once confirmed, then reads the renewals again', async () => {
    server.use(
      http.post('/api/auth/renewals/:id/skip', ({ params }) => {
        const skipped = aRenewal(3, { status: 'skipped', noticeSentAt: '2030-02-27T00:00:00.000Z' });
        planView = {
          ...planView,
          renewals: planView.renewals.map((r) => (r.id === params.id ? skipped : r)),
        };
        return ok(renewalSchema, skipped);
      }),
    );
    const user = userEvent.setup();
    await renderPage();
    const menu = await openRenewalActions(MARCH);
    await user.click(within(menu).getByRole('menuitem', { name: labels.skipDebit }));
    const dialog = await screen.findByRole('dialog', { name: labels.skipTitle });
    expect(dialog.textContent).toContain(labels.skipMessage('₹1,180.00', MARCH));
    expect(sentRequests('POST')).toHaveLength(0);
    const reads = sentRequests('GET', '/auth/billing-plan').length;
    await user.click(within(dialog).getByRole('button', { name: labels.skipDebit }));
    expect(await screen.findByText(messages.renewals.skipped)).toBeTruthy();
    expect(sentRequests('POST').map((r) => r.path)).toEqual([`/auth/renewals/${renewalId(3)}/skip`]);
    await waitFor(() => expect(sentRequests('GET', '/auth/billing-plan').length).toBeGreaterThan(reads));
    await waitFor(() => expect(renewalCells(1)[2]).toBe('Skipped'));
    expect(screen.queryByRole('button', { name: labels.renewalActionsFor(MARCH) })).toBeNull();
  });

  it('shows a refusal as the server words it', async () => {
    server.use(http.post('/api/auth/renewals/:id/skip', () => refusal(409, messages.renewals.notSkippable)));
    const user = userEvent.setup();
    await renderPage();
    const menu = await openRenewalActions(MARCH);
    await user.click(within(menu).getByRole('menuitem', { name: labels.skipDebit }));
    const dialog = await screen.findByRole('dialog', { name: labels.skipTitle });
    await user.click(within(dialog).getByRole('button', { name: labels.skipDebit }));
    expect(await screen.findByText(messages.renewals.notSkippable)).toBeTruthy();
    expect(screen.queryByText(messages.renewals.skipped)).toBeNull();
  });

  it('sets up a card mandate in the sandbox for up to the plan’s amount', async () => {
    server.use(
      configHandler('sandbox'),
      http.post('/api/admin/payment/sandbox/mandate', () => {
        planView = { ...planView, plan: aPlan({ collection: 'mandate', mandateStatus: 'authorized' }) };
        return ok(billingPlanSchema, planView.plan!);
      }),
    );
    const user = userEvent.setup();
    await renderPage();
    await user.click(await screen.findByRole('button', { name: labels.setUpMandate }));
    const dialog = await screen.findByRole('dialog', { name: labels.mandateTitle });
    // Monthly debits up to the plan's amount; above ₹15,000, approved each time.
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByText(labels.mandateExplanation(118_000))).toBeTruthy();
    expect(labels.mandateExplanation(118_000)).toMatch(/₹1,180\.00.*₹15,000\.00/);
    const card = within(dialog).getByRole('textbox', { name: labels.cardNumber }) as HTMLInputElement;
    expect(card.value).toBe('4111 1111 1111 1111');
    await user.click(within(dialog).getByRole('button', { name: labels.authorizeMandate }));
    expect(await screen.findByText(labels.mandateDone)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lastRequest('POST', '/admin/payment/sandbox/mandate').body).toEqual({
      cardNumber: '4111111111111111',
    });
    await waitFor(() => expect(planTerm(labels.paidBy)).toBe(labels.mandateAuthorized));
    expect(screen.queryByRole('button', { name: labels.setUpMandate })).toBeNull();
    expect(screen.getByRole('button', { name: labels.replaceMandate })).toBeTruthy();
  });

  it('cancels the card mandate after asking, and offers to set one up again', async () => {
    planView = { ...planView, plan: aPlan({ collection: 'mandate', mandateStatus: 'authorized' }) };
    server.use(
      configHandler('sandbox'),
      http.post('/api/auth/billing-plan/mandate/cancel', () => {
        planView = { ...planView, plan: aPlan({ collection: 'manual', mandateStatus: 'cancelled' }) };
        return ok(billingPlanSchema, planView.plan!);
      }),
    );
    const user = userEvent.setup();
    await renderPage();
    await user.click(await screen.findByRole('button', { name: labels.cancelMandate }));
    const dialog = await screen.findByRole('dialog', { name: labels.cancelMandateTitle });
    expect(sentRequests('POST')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: labels.cancelMandate }));
    expect(await screen.findByText(messages.renewals.mandateCancelled)).toBeTruthy();
    expect(lastRequest('POST', '/auth/billing-plan/mandate/cancel')).toBeTruthy();
    await waitFor(() => expect(planTerm(labels.paidBy)).toBe(labels.mandateCancelled));
    expect(await screen.findByRole('button', { name: labels.setUpMandate })).toBeTruthy();
    expect(screen.queryByRole('button', { name: labels.cancelMandate })).toBeNull();
  });

  it('keeps the mandate dialog open with the server’s message when the card is declined', async () => {
    server.use(
      configHandler('sandbox'),
      http.post('/api/admin/payment/sandbox/mandate', () =>
        refusal(402, messages.billing.cardDeclined, { cardNumber: ['declined'] }),
      ),
    );
    const user = userEvent.setup();
    await renderPage();
    await user.click(await screen.findByRole('button', { name: labels.setUpMandate }));
    const dialog = await screen.findByRole('dialog', { name: labels.mandateTitle });
    const card = within(dialog).getByRole('textbox', { name: labels.cardNumber });
    await user.clear(card);
    await user.type(card, '4000 0000 00');
    await user.click(within(dialog).getByRole('button', { name: labels.authorizeMandate }));
    // Short of 16 digits: the shared rule's message, and nothing sent.
    expect(await within(dialog).findByText('Enter the 16 digits of the test card')).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);
    await user.type(card, '000002');
    await user.click(within(dialog).getByRole('button', { name: labels.authorizeMandate }));
    expect(await within(dialog).findByText(messages.billing.cardDeclined)).toBeTruthy();
    expect(lastRequest('POST', '/admin/payment/sandbox/mandate').body).toEqual({
      cardNumber: SANDBOX_DECLINED_CARD,
    });
    expect(screen.getByRole('dialog', { name: labels.mandateTitle })).toBeTruthy();
    expect(planTerm(labels.paidBy)).toBe(labels.paidManually);
  });

  it('sets up the card mandate in Razorpay Checkout with recurring on, then verifies its answer', async () => {
    const mandateOrder: MandateOrder = {
      orderId: 'order_MandateAuth001',
      customerId: 'cust_Organization01',
      amountPaise: MANDATE_AUTHORIZATION_PAISE,
      maxAmountPaise: 1_500_000,
      checkout: {
        provider: 'razorpay',
        keyId: 'rzp_test_key',
        name: 'Portal',
        description: 'Credits',
        currency: 'INR',
      },
    };
    const answer = {
      razorpay_order_id: mandateOrder.orderId,
      razorpay_payment_id: 'pay_MandateAuth001',
      razorpay_signature: 'a'.repeat(64),
    };
    server.use(
      http.post('/api/auth/billing-plan/mandate/order', () => ok(mandateOrderSchema, mandateOrder)),
      http.post('/api/auth/billing-plan/mandate/verify', () => {
        planView = { ...planView, plan: aPlan({ collection: 'mandate', mandateStatus: 'authorized' }) };
        return HttpResponse.json({
          success: true,
          message: messages.renewals.mandateAuthorized,
          data: planView.plan,
        });
      }),
    );
    // Razorpay's checkout.js, as the page finds it once loaded: the customer authenticates at once.
    const opened: Record<string, unknown>[] = [];
    window.Razorpay = class {
      constructor(private readonly options: Record<string, unknown>) {
        opened.push(options);
      }
      open() {
        (this.options.handler as (response: typeof answer) => void)(answer);
      }
      on() {}
    };
    try {
      const user = userEvent.setup();
      await renderPage();
      await user.click(await screen.findByRole('button', { name: labels.setUpMandate }));
      expect(await screen.findByText(messages.renewals.mandateAuthorized)).toBeTruthy();
      expect(opened).toEqual([
        expect.objectContaining({
          key: 'rzp_test_key',
          order_id: mandateOrder.orderId,
          customer_id: mandateOrder.customerId,
          recurring: '1',
          amount: MANDATE_AUTHORIZATION_PAISE,
        }),
      ]);
      expect(lastRequest('POST', '/auth/billing-plan/mandate/verify').body).toEqual(answer);
      await waitFor(() => expect(planTerm(labels.paidBy)).toBe(labels.mandateAuthorized));
      expect(screen.getByRole('button', { name: labels.replaceMandate })).toBeTruthy();
    } finally {
      delete window.Razorpay;
    }
  });

  it('does not offer Razorpay’s mandate to an admin without a mobile number, and says why', async () => {
    signedIn = { ...signedIn, mobileNo: null };
    await renderPage();
    const button = await screen.findByRole('button', { name: labels.setUpMandate });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(messages.renewals.mandateNeedsMobile)).toBeTruthy();
  });

  it('pays a declined renewal through the credits checkout, then refreshes the plan, credits and ledger', async () => {
    const renewalOrder = { ...order, id: 'o2', credits: 10, amountPaise: 118_000 };
    server.use(
      http.post('/api/auth/renewals/:id/order', () =>
        ok(
          orderCreatedSchema,
          {
            status: 'order_created',
            message: messages.payment.orderCreated,
            order: renewalOrder,
            checkout: {
              provider: 'sandbox',
              keyId: null,
              name: 'Portal',
              description: 'Renewal',
              currency: 'INR',
            },
          },
          { status: 201 },
        ),
      ),
    );
    const user = userEvent.setup();
    await renderPage();
    const menu = await openRenewalActions(FEBRUARY);
    const reads = () =>
      ['/auth/billing-plan', '/auth/credits', '/auth/credits/ledger'].map(
        (path) => sentRequests('GET', path).length,
      );
    const before = reads();
    await user.click(within(menu).getByRole('menuitem', { name: labels.payNow }));
    const dialog = await screen.findByRole('dialog', { name: 'Test checkout' });
    expect(within(dialog).getByRole('button', { name: /Pay ₹1,180\.00/ })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /Pay/ }));
    expect(await screen.findByText(messages.payment.verified)).toBeTruthy();
    expect(sentRequests('POST').map((r) => r.path)).toEqual([
      `/auth/renewals/${renewalId(2)}/order`,
      '/admin/payment/sandbox/pay',
      '/admin/payment/verify',
    ]);
    await waitFor(() => reads().forEach((n, i) => expect(n).toBeGreaterThan(before[i]!)));
  });

  it('fits a phone: the terms stacked, each renewal a card with its actions', async () => {
    setViewportWidth(375);
    await renderPage();
    const list = await screen.findByRole('list', { name: labels.latestRenewals });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(within(cards[0]!).getByText(MARCH)).toBeTruthy();
    expect(within(cards[0]!).getByRole('button', { name: labels.renewalActionsFor(MARCH) })).toBeTruthy();
    expect(screen.queryByRole('table', { name: labels.latestRenewals })).toBeNull();
  });
});

/** The Change plan dialog, opened from the plan's card. */
async function openChangePlan() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: labels.changePlan }));
  return screen.findByRole('dialog', { name: labels.changePlanTitle });
}

/** Types `credits` as the credits a month of the open Change plan dialog. */
async function typeCredits(dialog: HTMLElement, credits: string) {
  const user = userEvent.setup();
  const field = within(dialog).getByRole('spinbutton', { name: labels.creditsPerMonth });
  await user.clear(field);
  await user.type(field, credits);
}

describe('changing the plan', () => {
  /** The upgrade to 15 credits: 5 extra credits for the rest of February at ₹100 + 18 % GST. */
  const upgradeOrder = { ...order, id: 'o3', credits: 5, amountPaise: 59_000 };

  beforeEach(() => {
    server.use(
      configHandler('sandbox'),
      http.post('/api/auth/billing-plan/upgrade', () =>
        ok(
          orderCreatedSchema,
          {
            status: 'order_created',
            message: messages.payment.orderCreated,
            order: upgradeOrder,
            checkout: {
              provider: 'sandbox',
              keyId: null,
              name: 'Portal',
              description: 'Plan upgrade',
              currency: 'INR',
            },
          },
          { status: 201 },
        ),
      ),
    );
  });

  it('shows how unused credits roll over when the plan has a cap', async () => {
    planView = { ...planView, plan: aPlan({ rolloverCap: 1500 }) };
    await renderPage();
    await screen.findByText(labels.unusedCredits);
    expect(planTerm(labels.unusedCredits)).toBe(labels.rollOverUpTo('1,500'));
  });

  it('upgrades now: shows what the order charges, then pays it through the checkout and refreshes', async () => {
    server.use(
      http.post('/api/admin/payment/verify', () => {
        // Verified, the plan has the new credits from now.
        planView = { ...planView, plan: aPlan({ creditsPerPeriod: 15, amountPaise: 177_000 }) };
        return ok(paymentVerifiedSchema, {
          status: 'payment_verified',
          message: messages.payment.verified,
          order: { ...upgradeOrder, status: 'payment_verified' },
          payment: aPayment({
            organizationId: ORG_ID,
            subscriptionId: null,
            amountPaise: upgradeOrder.amountPaise,
            providerPaymentId: checkout.razorpay_payment_id,
            providerOrderId: upgradeOrder.providerOrderId,
            paymentStatus: 'CAPTURED',
            paymentMethod: 'ONLINE',
          }),
          creditBalance: balance + 5,
        });
      }),
    );
    const user = userEvent.setup();
    await renderPage();
    let dialog = await openChangePlan();
    const upgradeNow = within(dialog).getByRole('radio', { name: labels.upgradeNow }) as HTMLInputElement;
    // Not more than today's 10: no upgrade.
    expect(upgradeNow.disabled).toBe(true);
    await typeCredits(dialog, '15');
    // The new month's amount at the plan's price and GST.
    expect(within(dialog).getByText(labels.newAmountPerMonth('₹1,770.00'))).toBeTruthy();
    expect(upgradeNow.disabled).toBe(false);
    await user.click(upgradeNow);
    expect(within(dialog).getByText(labels.upgradeNowHint('1 Mar 2030'))).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: labels.continue }));

    // The order is created and its amount shown; nothing is paid yet.
    dialog = await screen.findByRole('dialog', { name: labels.upgradeChargeTitle });
    expect(lastRequest('POST', '/auth/billing-plan/upgrade').body).toEqual({ creditsPerPeriod: 15 });
    expect(lastRequest('POST', '/auth/billing-plan/upgrade').query).toEqual({});
    const figure = (term: string) =>
      within(dialog).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(figure(labels.upgradeExtraCredits)).toBe('5');
    expect(figure(labels.upgradeAmountNow)).toBe('₹590.00');
    expect(figure(labels.upgradeUntil)).toBe('1 Mar 2030');
    expect(figure(labels.upgradeThen)).toBe(labels.upgradeThenValue('15', '₹1,770.00'));
    expect(sentRequests('POST').map((r) => r.path)).toEqual(['/auth/billing-plan/upgrade']);

    const reads = () =>
      ['/auth/billing-plan', '/auth/credits', '/auth/credits/ledger', '/auth/activities'].map(
        (path) => sentRequests('GET', path).length,
      );
    const before = reads();
    await user.click(within(dialog).getByRole('button', { name: labels.payAmount('₹590.00') }));
    const pay = await screen.findByRole('dialog', { name: 'Test checkout' });
    expect(screen.queryByRole('dialog', { name: labels.upgradeChargeTitle })).toBeNull();
    await user.click(within(pay).getByRole('button', { name: /Pay ₹590\.00/ }));
    expect(await screen.findByText(messages.payment.verified)).toBeTruthy();
    expect(await screen.findByText(labels.planUpgraded('15'))).toBeTruthy();
    expect(sentRequests('POST').map((r) => r.path)).toEqual([
      '/auth/billing-plan/upgrade',
      '/admin/payment/sandbox/pay',
      '/admin/payment/verify',
    ]);
    // The plan (and its renewals), the balance, the ledger and the history are read again.
    await waitFor(() => reads().forEach((n, i) => expect(n).toBeGreaterThan(before[i]!)));
    await waitFor(() => expect(planTerm(labels.creditsPerMonth)).toBe('15'));
  });

  it.each([
    [400, messages.renewals.notAnUpgrade],
    [409, messages.renewals.nothingToProrate],
  ])(
    'shows the server’s refusal of an upgrade (%i) as it words it, and keeps the dialog',
    async (status, text) => {
      server.use(http.post('/api/auth/billing-plan/upgrade', () => refusal(status, text)));
      const user = userEvent.setup();
      await renderPage();
      const dialog = await openChangePlan();
      await typeCredits(dialog, '20');
      await user.click(within(dialog).getByRole('radio', { name: labels.upgradeNow }));
      await user.click(within(dialog).getByRole('button', { name: labels.continue }));
      expect(await within(dialog).findByText(text)).toBeTruthy();
      expect(screen.getByRole('dialog', { name: labels.changePlanTitle })).toBeTruthy();
      expect(screen.queryByRole('dialog', { name: 'Test checkout' })).toBeNull();
      expect(sentRequests('POST').map((r) => r.path)).toEqual(['/auth/billing-plan/upgrade']);
    },
  );

  it('changes the credits from the next renewal: PUTs the terms, says so and reads the plan again', async () => {
    server.use(
      http.put('/api/auth/billing-plan/terms', async ({ request }) => {
        const { creditsPerPeriod } = (await request.json()) as { creditsPerPeriod: number };
        planView = { ...planView, plan: aPlan({ creditsPerPeriod, amountPaise: 94_400 }) };
        return ok(billingPlanSchema, planView.plan!);
      }),
    );
    const user = userEvent.setup();
    await renderPage();
    const dialog = await openChangePlan();
    // Today's number changes nothing.
    await user.click(within(dialog).getByRole('button', { name: labels.saveFromNextRenewal }));
    expect(await within(dialog).findByText(labels.sameCredits('10'))).toBeTruthy();
    // Fewer credits: only from the next renewal.
    await typeCredits(dialog, '8');
    expect(
      (within(dialog).getByRole('radio', { name: labels.fromNextRenewal }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(
      (within(dialog).getByRole('radio', { name: labels.upgradeNow }) as HTMLInputElement).disabled,
    ).toBe(true);
    expect(sentRequests('PUT')).toHaveLength(0);
    const reads = sentRequests('GET', '/auth/billing-plan').length;
    await user.click(within(dialog).getByRole('button', { name: labels.saveFromNextRenewal }));
    expect(await screen.findByText(labels.planChangeSaved('8'))).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lastRequest('PUT', '/auth/billing-plan/terms').body).toEqual({ creditsPerPeriod: 8 });
    expect(lastRequest('PUT', '/auth/billing-plan/terms').query).toEqual({});
    expect(sentRequests('POST')).toHaveLength(0);
    await waitFor(() => expect(sentRequests('GET', '/auth/billing-plan').length).toBeGreaterThan(reads));
    await waitFor(() => expect(planTerm(labels.creditsPerMonth)).toBe('8'));
  });

  it('opens the Change plan dialog on a phone, with its field and buttons', async () => {
    setViewportWidth(375);
    await renderPage();
    const dialog = await openChangePlan();
    expect(within(dialog).getByRole('spinbutton', { name: labels.creditsPerMonth })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: labels.saveFromNextRenewal })).toBeTruthy();
  });
});

describe('history', () => {
  it('lists the organization’s latest subscription events, newest first, with their dates', async () => {
    events = [
      anEvent(3, {
        type: 'updated',
        entityType: 'billing_plan',
        message: 'Plan changed to 8 interview credits a month (₹944.00) from the next renewal',
        actorName: 'Asha Rao',
        // 27 Feb 2030, 3:30 pm in India.
        date: '2030-02-27T10:00:00.000Z',
      }),
      anEvent(2, { message: 'Pre-debit notice sent for ₹1,180.00', date: '2030-02-26T00:00:00.000Z' }),
    ];
    await renderPage();
    const list = await screen.findByRole('list', { name: labels.history });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      '27 Feb 2030, 3:30 pmPlan changed to 8 interview credits a month (₹944.00) from the next renewal · Asha Rao',
      '26 Feb 2030, 5:30 amPre-debit notice sent for ₹1,180.00',
    ]);
    expect(lastRequest('GET', '/auth/activities').query).toEqual({
      page: '1',
      pageSize: '10',
      entityType: SUBSCRIPTION_TIMELINE_ENTITIES.join(','),
      organizationId: ORG_ID,
    });
    expect(SUBSCRIPTION_TIMELINE_ENTITIES.join(',')).toBe(
      'billing_plan,renewal,subscription,payment,payment_order',
    );
  });

  it('says when there is nothing yet, and why it could not be read', async () => {
    const { unmount } = await renderPage();
    expect(await screen.findByText(labels.historyEmpty)).toBeTruthy();
    unmount();
    server.use(http.get('/api/auth/activities', () => refusal(500, messages.common.unexpected)));
    await renderPage();
    expect(await screen.findByText(messages.common.unexpected)).toBeTruthy();
  });

  it('is left out for a user who may not read the activity feed', async () => {
    signedIn = aUser({
      username: 'tenant',
      role: 'admin',
      organizationId: ORG_ID,
      permissions: [permission('subscriptions', ['READ', 'CREATE'])],
    });
    await renderPage();
    await screen.findByText(labels.creditsPerMonth);
    expect(screen.queryByRole('heading', { name: labels.history })).toBeNull();
    expect(sentRequests('GET', '/auth/activities')).toHaveLength(0);
  });
});
