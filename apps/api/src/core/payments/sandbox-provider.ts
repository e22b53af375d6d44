import { randomBytes } from 'node:crypto';
import { SANDBOX_DECLINED_CARD, SANDBOX_FAILING_DEBITS_CARD } from '@portal/shared';
import type { Db } from '../../db/client.js';
import type { MandateDebits, PaymentProvider } from './payment-provider.js';
import { checkoutTexts, signatureChecks } from './payment-provider.js';
import { recordSandboxCharge } from './sandbox-charges.repo.js';
import { paymentSignature } from './signatures.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 14 base-62 characters, like Razorpay's ids (`order_N3kV…`, `pay_N3kW…`). */
export function providerId(prefix: 'order' | 'pay' | 'rfnd' | 'token'): string {
  const bytes = randomBytes(14);
  let id = '';
  for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${id}`;
}

export interface SandboxProvider extends PaymentProvider, MandateDebits {
  readonly name: 'sandbox';
  /** What Razorpay Checkout answers after a successful payment: a payment id and its signature. */
  pay(orderId: string): {
    razorpay_order_id: string;
    razorpay_payment_id: string;
    razorpay_signature: string;
  };
  /** The secret that signs webhooks in the sandbox (so tests and a local tool can send them). */
  readonly webhookSecret: string;
  /**
   * Registers a card mandate, as Razorpay Checkout does after the customer's authentication: its
   * token, or null for the declined test card. The failing-debits card's mandate declines every debit.
   */
  authorizeMandate(cardNumber: string): string | null;
}

const FAILING_SUFFIX = '_fails';

/**
 * The built-in provider (the default): orders are made locally and payments are signed exactly as
 * Razorpay signs them, with a secret kept in app_settings (shared by every API process).
 */
export function createSandboxProvider(secret: string, db: Db): SandboxProvider {
  return {
    name: 'sandbox',
    webhookSecret: secret,
    async createOrder({ amountPaise, receipt }) {
      return { id: providerId('order'), amountPaise, currency: 'INR', receipt };
    },
    checkoutConfig: () => checkoutTexts('sandbox', null),
    // The portal checks the amount against what is left to refund before it asks.
    async refund({ amountPaise }) {
      return { id: providerId('rfnd'), amountPaise };
    },
    ...signatureChecks(secret, secret),
    pay(orderId) {
      const paymentId = providerId('pay');
      return {
        razorpay_order_id: orderId,
        razorpay_payment_id: paymentId,
        razorpay_signature: paymentSignature(secret, orderId, paymentId),
      };
    },
    authorizeMandate(cardNumber) {
      if (cardNumber === SANDBOX_DECLINED_CARD) return null;
      const token = providerId('token');
      return cardNumber === SANDBOX_FAILING_DEBITS_CARD ? `${token}${FAILING_SUFFIX}` : token;
    },
    // Kept in the database, as Razorpay keeps its orders: every API process answers a receipt alike.
    async chargeMandate({ mandate, amountPaise, receipt }) {
      const failing = mandate.token.endsWith(FAILING_SUFFIX);
      const charge = await recordSandboxCharge(db, {
        receipt,
        amountPaise,
        providerPaymentId: failing ? null : providerId('pay'),
        failure: failing ? 'The bank declined the debit (sandbox card ending 0341).' : null,
      });
      return charge.providerPaymentId
        ? { status: 'captured', providerPaymentId: charge.providerPaymentId }
        : { status: 'failed', reason: charge.failure ?? 'Declined' };
    },
  };
}
