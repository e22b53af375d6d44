import type { FastifyInstance } from 'fastify';
import { messages } from '@portal/shared';
import { AppError, badRequest } from '../../lib/errors.js';
import { sha256Hex } from '../../lib/tokens.js';
import { markOrderFailed } from './orders.repo.js';
import { applyConfirmedPayment } from './orders.service.js';
import { recordWebhookEvent } from './webhook-events.repo.js';

interface RazorpayEvent {
  event?: unknown;
  payload?: {
    payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown } };
    order?: { entity?: { id?: unknown } };
  };
}

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);

/**
 * POST /api/admin/payment/webhook. The signature is checked over the raw body; each event (Razorpay's
 * `X-Razorpay-Event-Id`, else the body's hash) is applied once, in the same transaction that records
 * it in `webhook_events`, so a failed application is retried by the provider and a duplicate, however
 * concurrent, changes nothing.
 */
export async function handleWebhook(
  app: FastifyInstance,
  rawBody: Buffer,
  signature: string | undefined,
  eventIdHeader: string | undefined,
): Promise<{ applied: boolean; duplicate: boolean }> {
  if (!signature || !app.paymentProvider.verifyWebhook(rawBody, signature)) {
    throw badRequest(messages.billing.webhookSignatureInvalid);
  }
  let event: RazorpayEvent;
  try {
    event = JSON.parse(rawBody.toString('utf8')) as RazorpayEvent;
  } catch {
    throw badRequest(messages.http.badRequest);
  }
  const type = str(event.event) ?? 'unknown';
  const eventId = eventIdHeader || `sha256:${sha256Hex(rawBody)}`;
  const payment = event.payload?.payment?.entity;
  const paymentId = str(payment?.id);
  const orderId = str(payment?.order_id) ?? str(event.payload?.order?.entity?.id);
  const amount = typeof payment?.amount === 'number' ? payment.amount : undefined;

  return app.db.transaction(async (tx) => {
    if (!(await recordWebhookEvent(tx, eventId, type))) return { applied: false, duplicate: true };
    if ((type === 'payment.captured' || type === 'order.paid') && paymentId && orderId) {
      try {
        const result = await applyConfirmedPayment(app, tx, {
          providerOrderId: orderId,
          providerPaymentId: paymentId,
          actorUserId: null,
          paidAmountPaise: amount,
        });
        return { applied: result?.changed ?? false, duplicate: false };
      } catch (error) {
        // A paid amount that differs from the order is acknowledged (so it is not resent) but not applied.
        if (error instanceof AppError && error.statusCode === 400) {
          app.log.warn({ eventId, orderId, paymentId }, 'webhook payment does not match its order');
          return { applied: false, duplicate: false };
        }
        throw error;
      }
    }
    if (type === 'payment.failed' && orderId) {
      return { applied: (await markOrderFailed(tx, orderId)) !== null, duplicate: false };
    }
    return { applied: false, duplicate: false };
  });
}
