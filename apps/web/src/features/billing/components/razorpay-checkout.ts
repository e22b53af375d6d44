import type { CheckoutConfig, MandateOrder, PaymentOrder, VerifyPaymentBody } from '@portal/shared';

/** Razorpay Checkout (https://razorpay.com/docs/payments/payment-gateway/web-integration/standard/). */
const CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js';

interface RazorpayInstance {
  open(): void;
  on(event: 'payment.failed', handler: (response: { error?: { description?: string } }) => void): void;
}
declare global {
  interface Window {
    Razorpay?: new (options: Record<string, unknown>) => RazorpayInstance;
  }
}

let scriptLoading: Promise<void> | null = null;

function loadScript(): Promise<void> {
  if (window.Razorpay) return Promise.resolve();
  scriptLoading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = CHECKOUT_SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      scriptLoading = null;
      reject(new Error('Could not load Razorpay Checkout'));
    };
    document.body.append(script);
  });
  return scriptLoading;
}

/** Opens Razorpay Checkout with `options`; resolves with what verify needs, or null if closed. */
async function openCheckout(options: Record<string, unknown>): Promise<VerifyPaymentBody | null> {
  await loadScript();
  const Razorpay = window.Razorpay;
  if (!Razorpay) throw new Error('Could not load Razorpay Checkout');
  return new Promise((resolve, reject) => {
    const instance = new Razorpay({
      ...options,
      handler: (response: VerifyPaymentBody) => resolve(response),
      modal: { ondismiss: () => resolve(null) },
    });
    instance.on('payment.failed', (response) =>
      reject(new Error(response.error?.description ?? 'Payment failed')),
    );
    instance.open();
  });
}

/** Opens Razorpay Checkout for a server-created order. */
export function openRazorpayCheckout(
  order: PaymentOrder,
  checkout: CheckoutConfig,
): Promise<VerifyPaymentBody | null> {
  return openCheckout({
    key: checkout.keyId,
    amount: order.amountPaise,
    currency: order.currency,
    name: checkout.name,
    description: checkout.description,
    order_id: order.providerOrderId,
  });
}

/**
 * Opens Razorpay Checkout for a card mandate's authorization order: `recurring` registers the card
 * as a token for the customer (razorpay.com/docs/payments/recurring-payments/cards/).
 */
export function openRazorpayMandateCheckout(order: MandateOrder): Promise<VerifyPaymentBody | null> {
  return openCheckout({
    key: order.checkout.keyId,
    amount: order.amountPaise,
    currency: order.checkout.currency,
    name: order.checkout.name,
    description: order.checkout.description,
    order_id: order.orderId,
    customer_id: order.customerId,
    recurring: '1',
  });
}
