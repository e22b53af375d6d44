import { hmacSha256, safeEqual } from '../../lib/tokens.js';

/**
 * Razorpay's signatures, which the sandbox produces too, so verification runs the same code for
 * both providers. Checkout: HMAC-SHA256 hex of `order_id|payment_id` with the key
 * secret. Webhook: HMAC-SHA256 hex of the raw request body with the webhook secret.
 */
export function paymentSignature(secret: string, orderId: string, paymentId: string): string {
  return hmacSha256(secret, `${orderId}|${paymentId}`);
}

export function isValidPaymentSignature(
  secret: string,
  orderId: string,
  paymentId: string,
  signature: string,
): boolean {
  return safeEqual(paymentSignature(secret, orderId, paymentId), signature);
}

export function webhookSignature(secret: string, rawBody: Buffer | string): string {
  return hmacSha256(secret, rawBody);
}

export function isValidWebhookSignature(
  secret: string,
  rawBody: Buffer | string,
  signature: string,
): boolean {
  return safeEqual(webhookSignature(secret, rawBody), signature);
}
