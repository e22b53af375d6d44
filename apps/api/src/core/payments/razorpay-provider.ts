import Razorpay from 'razorpay';
import type { PaymentProvider } from './payment-provider.js';
import { checkoutTexts, signatureChecks } from './payment-provider.js';

/** Razorpay through its official SDK; used when RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET are set. */
export function createRazorpayProvider(options: {
  keyId: string;
  keySecret: string;
  webhookSecret: string | null;
}): PaymentProvider {
  const client = new Razorpay({ key_id: options.keyId, key_secret: options.keySecret });
  return {
    name: 'razorpay',
    async createOrder({ amountPaise, receipt, notes }) {
      const order = await client.orders.create({ amount: amountPaise, currency: 'INR', receipt, notes });
      return { id: order.id, amountPaise: Number(order.amount), currency: 'INR', receipt };
    },
    checkoutConfig: () => checkoutTexts('razorpay', options.keyId),
    async refund({ providerPaymentId, amountPaise, receipt, notes }) {
      const refund = await client.payments.refund(providerPaymentId, { amount: amountPaise, receipt, notes });
      return { id: refund.id, amountPaise: Number(refund.amount) };
    },
    ...signatureChecks(options.keySecret, options.webhookSecret),
  };
}
