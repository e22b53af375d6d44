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
  { status: 'captured'; providerPaymentId: string } | { status: 'failed'; reason: string };

/**
 * Debits on a registered card or UPI mandate, which the portal starts (docs/decisions/027). Only the
 * sandbox offers them so far; with Razorpay, renewals are paid by their notice (manual collection).
 */
export interface MandateDebits {
  /**
   * Debits the mandate once per `receipt`: asked again with the same receipt (a retry after a crash),
   * it answers the first outcome and moves no money.
   */
  chargeMandate(input: {
    mandateToken: string;
    amountPaise: number;
    receipt: string;
  }): Promise<MandateCharge>;
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
