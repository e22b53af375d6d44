import { randomBytes } from 'node:crypto';
import type { RazorpayApi } from '../src/core/payments/index.js';
import { paymentSignature, webhookSignature } from '../src/core/payments/signatures.js';

/**
 * Razorpay's recurring card payments as its API behaves (razorpay.com/docs/api/payments/recurring-
 * payments/cards/), in memory, behind the calls the official SDK makes: the SDK's host is fixed to
 * api.razorpay.com, so the provider is tested against this instead. It keeps Razorpay's rules that
 * matter here (receipts of at most 40 characters, one captured payment per order, a token only for
 * its customer, debits above the token's max_amount refused, refunds no larger than what is left)
 * and emits the webhooks Razorpay sends, signed with the webhook secret.
 */

/** How the bank answers a debit: at once, or later (`pending`, settled by `settle`). */
export type BankAnswer = 'captured' | 'failed' | 'pending';

export interface EmittedWebhook {
  event: string;
  eventId: string;
  body: string;
  signature: string;
}

interface Order {
  id: string;
  amount: number;
  receipt: string | null;
  status: 'created' | 'attempted' | 'paid';
  notes: Record<string, string>;
  customerId: string | null;
  tokenTerms: { max_amount?: number } | null;
}

interface Payment {
  id: string;
  amount: number;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  order_id: string;
  token_id: string | null;
  error_description: string | null;
  notes: Record<string, string>;
  refunded: number;
}

interface Token {
  id: string;
  customerId: string;
  maxAmount: number;
  status: 'confirmed' | 'cancelled';
}

/** What the SDK rejects with when Razorpay answers 4xx. */
function refused(description: string) {
  return Object.assign(new Error(description), {
    statusCode: 400,
    error: { code: 'BAD_REQUEST_ERROR', description },
  });
}

const id = (prefix: string) => `${prefix}_${randomBytes(7).toString('hex')}`;

export function createRazorpayEmulator(secrets: { keySecret: string; webhookSecret: string }) {
  const customers = new Map<string, { id: string; name: string; email: string; contact: string }>();
  const orders = new Map<string, Order>();
  const payments = new Map<string, Payment>();
  const tokens = new Map<string, Token>();
  const webhooks: EmittedWebhook[] = [];
  const calls = { recurringPayments: 0, refunds: [] as Array<{ paymentId: string; amount: number }> };
  let bank: (debit: { amount: number; receipt: string | null }) => BankAnswer = () => 'captured';

  function emit(event: string, payload: Record<string, unknown>) {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_emulator',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: Math.floor(Date.now() / 1000),
    });
    webhooks.push({
      event,
      eventId: id('evt'),
      body,
      signature: webhookSignature(secrets.webhookSecret, body),
    });
  }

  const paymentEntity = (p: Payment) => ({
    id: p.id,
    entity: 'payment',
    amount: p.amount,
    currency: 'INR',
    status: p.status,
    order_id: p.order_id,
    method: 'card',
    recurring: true,
    token_id: p.token_id,
    error_description: p.error_description,
    notes: p.notes,
  });

  /** A payment's final answer: the order paid or not, and its webhook. */
  function conclude(payment: Payment, answer: 'captured' | 'failed') {
    payment.status = answer;
    const order = orders.get(payment.order_id)!;
    if (answer === 'captured') {
      order.status = 'paid';
      emit('payment.captured', { payment: { entity: paymentEntity(payment) } });
    } else {
      payment.error_description = 'Your payment was declined by the bank.';
      emit('payment.failed', { payment: { entity: paymentEntity(payment) } });
    }
  }

  const api: RazorpayApi = {
    orders: {
      async create(params) {
        if (!Number.isInteger(params.amount) || params.amount < 100)
          throw refused('The amount must be at least INR 1.00');
        if (params.receipt && params.receipt.length > 40)
          throw refused('receipt: The receipt may not be greater than 40 characters.');
        if (params.customer_id && !customers.has(params.customer_id))
          throw refused('The id provided does not exist');
        const order: Order = {
          id: id('order'),
          amount: params.amount,
          receipt: params.receipt ?? null,
          status: 'created',
          notes: params.notes ?? {},
          customerId: params.customer_id ?? null,
          tokenTerms: params.token ?? null,
        };
        orders.set(order.id, order);
        return { id: order.id, amount: order.amount, receipt: order.receipt, status: order.status };
      },
      async all(params = {}) {
        const items = [...orders.values()]
          .filter((o) => params.receipt === undefined || o.receipt === params.receipt)
          .reverse()
          .slice(0, params.count ?? 10)
          .map((o) => ({ id: o.id, amount: o.amount, receipt: o.receipt, status: o.status }));
        return { items };
      },
      async fetchPayments(orderId) {
        return { items: [...payments.values()].filter((p) => p.order_id === orderId).map(paymentEntity) };
      },
    },
    payments: {
      async fetch(paymentId) {
        const payment = payments.get(paymentId);
        if (!payment) throw refused('The id provided does not exist');
        return paymentEntity(payment);
      },
      async createRecurringPayment(params) {
        const order = orders.get(params.order_id);
        if (!order) throw refused('The id provided does not exist');
        if (order.status === 'paid') throw refused('Order has been paid already');
        if (params.amount !== order.amount) throw refused('The amount must match the order amount');
        const token = tokens.get(params.token);
        if (!token || token.customerId !== params.customer_id) throw refused('The token is invalid');
        if (token.status !== 'confirmed') throw refused('The token is not active');
        if (params.amount > token.maxAmount)
          throw refused('The amount exceeds the maximum amount of the mandate');
        calls.recurringPayments++;
        const payment: Payment = {
          id: id('pay'),
          amount: params.amount,
          status: 'created',
          order_id: order.id,
          token_id: token.id,
          error_description: null,
          notes: params.notes,
          refunded: 0,
        };
        payments.set(payment.id, payment);
        order.status = 'attempted';
        const answer = bank({ amount: params.amount, receipt: order.receipt });
        if (answer !== 'pending') conclude(payment, answer);
        return {
          razorpay_payment_id: payment.id,
          razorpay_order_id: order.id,
          razorpay_signature: paymentSignature(secrets.keySecret, order.id, payment.id),
        };
      },
      async refund(paymentId, params) {
        const payment = payments.get(paymentId);
        if (!payment || payment.status !== 'captured') throw refused('The payment has not been captured');
        const amount = params.amount ?? payment.amount - payment.refunded;
        if (amount > payment.amount - payment.refunded) {
          throw refused('The refund amount provided is greater than amount captured');
        }
        payment.refunded += amount;
        calls.refunds.push({ paymentId, amount });
        return { id: id('rfnd'), amount };
      },
    },
    customers: {
      async create(params) {
        const existing = [...customers.values()].find(
          (c) => c.email === params.email && c.contact === String(params.contact ?? ''),
        );
        if (existing && (params.fail_existing === 0 || params.fail_existing === false)) return existing;
        if (existing) throw refused('Customer already exists for the merchant');
        const customer = {
          id: id('cust'),
          name: params.name ?? '',
          email: params.email ?? '',
          contact: String(params.contact ?? ''),
        };
        customers.set(customer.id, customer);
        return customer;
      },
      async fetch(customerId) {
        const customer = customers.get(customerId);
        if (!customer) throw refused('The id provided does not exist');
        return customer;
      },
      async deleteToken(customerId, tokenId) {
        const token = tokens.get(tokenId);
        if (!token || token.customerId !== customerId || token.status === 'cancelled') {
          throw refused('The token is invalid');
        }
        token.status = 'cancelled';
        return { deleted: true };
      },
    },
  };

  return {
    api,
    webhooks,
    calls,
    /** Decides how the bank answers each debit from now on. */
    setBank(answer: typeof bank) {
      bank = answer;
    },
    /**
     * What Razorpay Checkout does when the customer authenticates the authorization order: the
     * payment captured with a new token for the order's customer, and Checkout's signed answer.
     */
    authorize(orderId: string) {
      const order = orders.get(orderId);
      if (!order?.customerId || !order.tokenTerms)
        throw new Error(`${orderId} is not an authorization order`);
      const token: Token = {
        id: id('token'),
        customerId: order.customerId,
        maxAmount: order.tokenTerms.max_amount ?? 500_000,
        status: 'confirmed',
      };
      tokens.set(token.id, token);
      const payment: Payment = {
        id: id('pay'),
        amount: order.amount,
        status: 'created',
        order_id: order.id,
        token_id: token.id,
        error_description: null,
        notes: order.notes,
        refunded: 0,
      };
      payments.set(payment.id, payment);
      conclude(payment, 'captured');
      return {
        token: token.id,
        answer: {
          razorpay_order_id: order.id,
          razorpay_payment_id: payment.id,
          razorpay_signature: paymentSignature(secrets.keySecret, order.id, payment.id),
        },
      };
    },
    /** The bank answers a pending debit. */
    settle(paymentId: string, answer: 'captured' | 'failed') {
      const payment = payments.get(paymentId);
      if (!payment || payment.status !== 'created') throw new Error(`${paymentId} is not pending`);
      conclude(payment, answer);
    },
    /** The customer cancels the mandate at their bank: the token ends, and Razorpay says so. */
    cancelAtBank(tokenId: string) {
      const token = tokens.get(tokenId)!;
      token.status = 'cancelled';
      emit('token.cancelled', {
        token: { entity: { id: token.id, customer_id: token.customerId, status: 'cancelled' } },
      });
    },
    token: (tokenId: string) => tokens.get(tokenId),
    /** Payments of debits (not authorizations) by their order's receipt. */
    debits: () => [...payments.values()].filter((p) => orders.get(p.order_id)?.customerId === null),
  };
}

export type RazorpayEmulator = ReturnType<typeof createRazorpayEmulator>;
