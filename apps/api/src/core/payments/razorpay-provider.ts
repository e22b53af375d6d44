import Razorpay from 'razorpay';
import { MANDATE_AUTHORIZATION_PAISE } from '@portal/shared';
import type {
  MandateCharge,
  MandateDebits,
  MandateRegistration,
  PaymentProvider,
} from './payment-provider.js';
import { checkoutTexts, signatureChecks } from './payment-provider.js';
import { razorpayRefusal, type RazorpayApi, type RazorpayPaymentEntity } from './razorpay-api.js';

export interface RazorpayProvider extends PaymentProvider, MandateDebits, MandateRegistration {
  readonly name: 'razorpay';
}

/**
 * A debit's outcome from its order's payments: captured if any was, pending while one is in flight,
 * failed when every one failed; null when the order has none yet.
 */
function outcomeOf(payments: RazorpayPaymentEntity[]): MandateCharge | null {
  const captured = payments.find((p) => p.status === 'captured' || p.status === 'refunded');
  if (captured) return { status: 'captured', providerPaymentId: captured.id };
  if (payments.some((p) => p.status === 'created' || p.status === 'authorized')) return { status: 'pending' };
  const failed = payments.at(-1);
  return failed
    ? { status: 'failed', reason: failed.error_description ?? 'The bank declined the debit.' }
    : null;
}

/**
 * Razorpay through its official SDK; used when RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET are set.
 * `api` replaces the SDK's client in tests (an emulator of the same calls).
 */
export function createRazorpayProvider(options: {
  keyId: string;
  keySecret: string;
  webhookSecret: string | null;
  api?: RazorpayApi;
}): RazorpayProvider {
  const api: RazorpayApi =
    options.api ?? new Razorpay({ key_id: options.keyId, key_secret: options.keySecret });
  return {
    name: 'razorpay',
    async createOrder({ amountPaise, receipt, notes }) {
      const order = await api.orders.create({ amount: amountPaise, currency: 'INR', receipt, notes });
      return { id: order.id, amountPaise: Number(order.amount), currency: 'INR', receipt };
    },
    checkoutConfig: () => checkoutTexts('razorpay', options.keyId),
    async refund({ providerPaymentId, amountPaise, receipt, notes }) {
      const refund = await api.payments.refund(providerPaymentId, { amount: amountPaise, receipt, notes });
      return { id: refund.id, amountPaise: Number(refund.amount) };
    },
    ...signatureChecks(options.keySecret, options.webhookSecret),

    // Recurring card payments (razorpay.com/docs/api/payments/recurring-payments/cards/).
    async startMandate({ customerId, customer, maxAmountPaise, receipt, notes }) {
      const id = customerId ?? (await api.customers.create({ ...customer, fail_existing: 0, notes })).id;
      const order = await api.orders.create({
        amount: MANDATE_AUTHORIZATION_PAISE,
        currency: 'INR',
        customer_id: id,
        method: 'card',
        receipt,
        notes,
        payment_capture: true,
        token: { max_amount: maxAmountPaise, frequency: 'monthly' },
      });
      return { orderId: order.id, customerId: id, amountPaise: Number(order.amount) };
    },
    async registeredToken(paymentId) {
      const payment = await api.payments.fetch(paymentId);
      return payment.status === 'captured' || payment.status === 'authorized'
        ? (payment.token_id ?? null)
        : null;
    },
    async cancelMandate({ customerId, token }) {
      await api.customers.deleteToken(customerId, token);
    },
    // Razorpay keeps no receipt unique, so a debit asked again finds its order by receipt first and
    // answers that order's payment; only an order with no payment yet is debited (again).
    async chargeMandate({ mandate, amountPaise, receipt, notes }) {
      if (!mandate.customerId) return { status: 'failed', reason: 'The mandate has no Razorpay customer.' };
      const [existing] = (await api.orders.all({ receipt, count: 1 })).items;
      if (existing) {
        const known = outcomeOf((await api.orders.fetchPayments(existing.id)).items);
        if (known) return known;
      }
      const order =
        existing ??
        (await api.orders.create({
          amount: amountPaise,
          currency: 'INR',
          receipt,
          notes,
          payment_capture: true,
        }));
      const customer = await api.customers.fetch(mandate.customerId);
      try {
        const created = await api.payments.createRecurringPayment({
          email: customer.email ?? '',
          contact: customer.contact ?? '',
          amount: amountPaise,
          currency: 'INR',
          order_id: order.id,
          customer_id: mandate.customerId,
          token: mandate.token,
          recurring: '1',
          description: checkoutTexts('razorpay', null).description,
          notes,
        });
        if (!created.razorpay_payment_id) return { status: 'pending' };
        return outcomeOf([await api.payments.fetch(created.razorpay_payment_id)]) ?? { status: 'pending' };
      } catch (error) {
        // Refused outright (a cancelled token, a card the bank declines): this attempt failed.
        const refusal = razorpayRefusal(error);
        if (refusal) return { status: 'failed', reason: refusal.description };
        throw error;
      }
    },
  };
}
