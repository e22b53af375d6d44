import type { FastifyInstance } from 'fastify';
import { messages } from '@portal/shared';
import { AppError, badRequest } from '../../lib/errors.js';
import { sha256Hex } from '../../lib/tokens.js';
import type { Db } from '../../db/client.js';
import { applyRefund } from '../invoices/refunds.service.js';
import { deliverAll } from '../../core/mail.js';
import { markOrderFailed } from './orders.repo.js';
import { findPaymentByProviderId } from './payments.repo.js';
import { applyConfirmedPayment } from './orders.service.js';
import { recordWebhookEvent } from './webhook-events.repo.js';

interface RazorpayEvent {
  event?: unknown;
  payload?: {
    payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown } };
    order?: { entity?: { id?: unknown } };
    refund?: { entity?: { id?: unknown; payment_id?: unknown; amount?: unknown } };
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

  const outcome = await app.db.transaction(async (tx): Promise<WebhookOutcome> => {
    if (!(await recordWebhookEvent(tx, eventId, type)))
      return { applied: false, duplicate: true, outboxIds: [] };
    if ((type === 'payment.captured' || type === 'order.paid') && paymentId && orderId) {
      try {
        const result = await applyConfirmedPayment(app, tx, {
          providerOrderId: orderId,
          providerPaymentId: paymentId,
          actorUserId: null,
          paidAmountPaise: amount,
        });
        return { applied: result?.changed ?? false, duplicate: false, outboxIds: result?.outboxIds ?? [] };
      } catch (error) {
        // A paid amount that differs from the order is acknowledged (so it is not resent) but not applied.
        if (error instanceof AppError && error.statusCode === 400) {
          app.log.warn({ eventId, orderId, paymentId }, 'webhook payment does not match its order');
          return { applied: false, duplicate: false, outboxIds: [] };
        }
        throw error;
      }
    }
    if (type === 'payment.failed' && orderId) {
      return { applied: (await markOrderFailed(tx, orderId)) !== null, duplicate: false, outboxIds: [] };
    }
    if (type === 'refund.processed') return applyRefundEvent(app, tx, eventId, event);
    return { applied: false, duplicate: false, outboxIds: [] };
  });
  await deliverAll(app, outcome.outboxIds);
  return { applied: outcome.applied, duplicate: outcome.duplicate };
}

interface WebhookOutcome {
  applied: boolean;
  duplicate: boolean;
  outboxIds: string[];
}

/**
 * Razorpay's `refund.processed`: a refund made in its dashboard, or one the portal asked for whose
 * record did not commit, is recorded with its credit note. A refund already recorded (the portal's
 * own) changes nothing; an unknown payment or an amount beyond what is left is acknowledged only.
 */
async function applyRefundEvent(
  app: FastifyInstance,
  tx: Db,
  eventId: string,
  event: RazorpayEvent,
): Promise<WebhookOutcome> {
  const refund = event.payload?.refund?.entity;
  const refundId = str(refund?.id);
  const providerPaymentId = str(refund?.payment_id);
  const amount = refund?.amount;
  const ignored = { applied: false, duplicate: false, outboxIds: [] };
  if (
    !refundId ||
    !providerPaymentId ||
    typeof amount !== 'number' ||
    !Number.isSafeInteger(amount) ||
    amount < 1
  ) {
    return ignored;
  }
  const payment = await findPaymentByProviderId(tx, providerPaymentId);
  if (!payment) return ignored;
  try {
    const applied = await applyRefund(app, tx, {
      paymentId: payment.id,
      amountPaise: amount,
      reason: 'Refund processed by the payment provider',
      actorUserId: null,
      providerRefund: { id: refundId },
    });
    return { applied: applied.changed, duplicate: !applied.changed, outboxIds: applied.outboxIds };
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) {
      app.log.warn({ eventId, refundId, providerPaymentId, err: error }, 'webhook refund not recorded');
      return ignored;
    }
    throw error;
  }
}
