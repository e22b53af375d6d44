import { messages } from '@portal/shared';
import { AppError, badRequest } from '../../lib/errors.js';
import { sha256Hex } from '../../lib/tokens.js';
import type { SystemActor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { markOrderFailed } from './orders.repo.js';
import { applyConfirmedPayment } from './orders.service.js';
import { findPaymentByProviderId } from './payments.repo.js';
import { applyRefund } from './refunds.service.js';
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
  deps: Deps,
  actor: SystemActor,
  input: {
    rawBody: Buffer;
    signature: string | undefined;
    /** `X-Razorpay-Event-Id`, when sent. */
    eventId: string | undefined;
  },
): Promise<{ applied: boolean; duplicate: boolean }> {
  const { rawBody, signature } = input;
  if (!signature || !deps.payments.verifyWebhook(rawBody, signature)) {
    throw badRequest(messages.billing.webhookSignatureInvalid);
  }
  let event: RazorpayEvent;
  try {
    event = JSON.parse(rawBody.toString('utf8')) as RazorpayEvent;
  } catch {
    throw badRequest(messages.http.badRequest);
  }
  const type = str(event.event) ?? 'unknown';
  const eventId = input.eventId || `sha256:${sha256Hex(rawBody)}`;
  const payment = event.payload?.payment?.entity;
  const paymentId = str(payment?.id);
  const orderId = str(payment?.order_id) ?? str(event.payload?.order?.entity?.id);
  const amount = typeof payment?.amount === 'number' ? payment.amount : undefined;

  const outcome = await deps.db.transaction(async (tx): Promise<WebhookOutcome> => {
    const txDeps = withDb(deps, tx);
    if (!(await recordWebhookEvent(tx, eventId, type))) return { applied: false, duplicate: true };
    if ((type === 'payment.captured' || type === 'order.paid') && paymentId && orderId) {
      try {
        const result = await applyConfirmedPayment(txDeps, actor, {
          providerOrderId: orderId,
          providerPaymentId: paymentId,
          paidAmountPaise: amount,
        });
        return { applied: result?.changed ?? false, duplicate: false };
      } catch (error) {
        // A paid amount that differs from the order is acknowledged (so it is not resent) but not applied.
        if (error instanceof AppError && error.statusCode === 400) {
          deps.log.warn({ eventId, orderId, paymentId }, 'webhook payment does not match its order');
          return { applied: false, duplicate: false };
        }
        throw error;
      }
    }
    if (type === 'payment.failed' && orderId) {
      return { applied: (await markOrderFailed(tx, orderId)) !== null, duplicate: false };
    }
    if (type === 'refund.processed') return applyRefundEvent(txDeps, actor, eventId, event);
    return { applied: false, duplicate: false };
  });
  return { applied: outcome.applied, duplicate: outcome.duplicate };
}

interface WebhookOutcome {
  applied: boolean;
  duplicate: boolean;
}

/**
 * Razorpay's `refund.processed`: a refund made in its dashboard, or one the portal asked for whose
 * record did not commit, is recorded with its credit note. A refund already recorded (the portal's
 * own) changes nothing; an unknown payment or an amount beyond what is left is acknowledged only.
 */
async function applyRefundEvent(
  deps: Deps,
  actor: SystemActor,
  eventId: string,
  event: RazorpayEvent,
): Promise<WebhookOutcome> {
  const refund = event.payload?.refund?.entity;
  const refundId = str(refund?.id);
  const providerPaymentId = str(refund?.payment_id);
  const amount = refund?.amount;
  const ignored = { applied: false, duplicate: false };
  if (
    !refundId ||
    !providerPaymentId ||
    typeof amount !== 'number' ||
    !Number.isSafeInteger(amount) ||
    amount < 1
  ) {
    return ignored;
  }
  const payment = await findPaymentByProviderId(deps.db, providerPaymentId);
  if (!payment) return ignored;
  try {
    const applied = await applyRefund(deps, actor, {
      paymentId: payment.id,
      amountPaise: amount,
      reason: 'Refund processed by the payment provider',
      providerRefund: { id: refundId },
    });
    return { applied: applied.changed, duplicate: !applied.changed };
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) {
      deps.log.warn({ eventId, refundId, providerPaymentId, err: error }, 'webhook refund not recorded');
      return ignored;
    }
    throw error;
  }
}
