import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  apiKeySchema,
  createdApiKeySchema,
  creditSummarySchema,
  ledgerEntrySchema,
  messages,
  orderCreatedSchema,
  paymentVerifiedSchema,
  storageKeys,
  verifyPaymentBodySchema,
  type PaymentOrder,
  type SessionUser,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, page } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aUser, permission } from '../../../test/users';
import { aPayment } from '../../../test/payments';
import { aSubscription, ORG_ID } from '../test-utils';
import { BillingPage } from './billing-page';

function tenantAdmin(scopes: ('READ' | 'CREATE')[]): SessionUser {
  return aUser({
    username: 'tenant',
    role: 'admin',
    organizationId: ORG_ID,
    permissions: [permission('subscriptions', scopes)],
  });
}

let balance = 12;
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
