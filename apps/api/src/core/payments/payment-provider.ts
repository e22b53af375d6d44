import type { CheckoutConfig } from '@portal/shared';
import { isValidPaymentSignature, isValidWebhookSignature } from './signatures.js';

export interface ProviderOrder {
  /** The provider's order id (`order_…`). */
  id: string;
  amountPaise: number;
  currency: 'INR';
  receipt: string;
}

export interface ProviderRefund {
  /** The provider's refund id (`rfnd_…`). */
  id: string;
  amountPaise: number;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'razorpay';
  createOrder(input: {
    amountPaise: number;
    receipt: string;
    notes: Record<string, string>;
  }): Promise<ProviderOrder>;
  checkoutConfig(): CheckoutConfig;
  /** Checks the checkout's signature over `order_id|payment_id` (constant time). */
  verifyPayment(orderId: string, paymentId: string, signature: string): boolean;
  /**
   * Refunds part or all of a captured payment. `receipt` names the refund at the provider, so a
   * retry of the same refund can be recognised there.
   */
  refund(input: {
    providerPaymentId: string;
    amountPaise: number;
    receipt: string;
    notes: Record<string, string>;
  }): Promise<ProviderRefund>;
  /** Checks `X-Razorpay-Signature` over the raw webhook body; false when no webhook secret is set. */
  verifyWebhook(rawBody: Buffer, signature: string): boolean;
}

/** What came of one debit on a mandate. */
export type MandateCharge =
  | { status: 'captured'; providerPaymentId: string }
  | { status: 'failed'; reason: string }
  /** Razorpay answers a recurring debit later: by webhook, or when asked again with the receipt. */
  | { status: 'pending' };

/** A registered mandate: the provider's token, and with Razorpay the customer it belongs to. */
export interface Mandate {
  token: string;
  customerId: string | null;
}

/**
 * Debits on a registered card mandate, which the portal starts (docs/decisions/027).
 */
export interface MandateDebits {
  /**
   * Debits the mandate once per `receipt`: asked again with the same receipt (a retry after a crash,
   * or to learn a pending debit's outcome), it answers that debit's outcome and moves no money.
   * `notes` travel with the debit and come back in the provider's webhooks.
   */
  chargeMandate(input: {
    mandate: Mandate;
    amountPaise: number;
    receipt: string;
    notes: Record<string, string>;
  }): Promise<MandateCharge>;
}

/**
 * A card mandate registered in Razorpay Checkout: an authorization order for a customer (paid with
 * the customer's authentication), whose payment names the token that later debits use.
 */
export interface MandateRegistration {
  startMandate(input: {
    /** Reused when the organization registered before, else created (or found) by these details. */
    customerId: string | null;
    customer: { name: string; email: string; contact: string };
    /** The most one debit may take without the customer's authentication. */
    maxAmountPaise: number;
    receipt: string;
    notes: Record<string, string>;
  }): Promise<{ orderId: string; customerId: string; amountPaise: number }>;
  /** The token the authorization payment registered, once it is paid; null when it has none. */
  registeredToken(paymentId: string): Promise<string | null>;
  /** Cancels the token at the provider: nothing can be debited from it again. */
  cancelMandate(mandate: { customerId: string; token: string }): Promise<void>;
}

const CHECKOUT_NAME = 'Interview Credits Portal';
const CHECKOUT_DESCRIPTION = 'AI Interview Bot credits';

/** The parts both providers share: signature checks with their secrets, and the checkout texts. */
export function signatureChecks(keySecret: string, webhookSecret: string | null) {
  return {
    verifyPayment: (orderId: string, paymentId: string, signature: string) =>
      isValidPaymentSignature(keySecret, orderId, paymentId, signature),
    verifyWebhook: (rawBody: Buffer, signature: string) =>
      webhookSecret !== null && isValidWebhookSignature(webhookSecret, rawBody, signature),
  };
}

export function checkoutTexts(provider: 'sandbox' | 'razorpay', keyId: string | null): CheckoutConfig {
  return { provider, keyId, name: CHECKOUT_NAME, description: CHECKOUT_DESCRIPTION, currency: 'INR' };
}
