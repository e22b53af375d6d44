import { messages } from '@portal/shared';
import { AppError, badRequest } from '../../lib/errors.js';
import { sha256Hex } from '../../lib/tokens.js';
import type { SystemActor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import type { MandateCharge } from '../../core/payments/index.js';
import { mandateAuthorizedByWebhook, mandateEndedByWebhook } from './mandates.service.js';
import { markOrderFailed } from './orders.repo.js';
import { countOnlinePayment } from './business-metrics.js';
import { applyConfirmedPayment } from './orders.service.js';
import { findPaymentByProviderId } from './payments.repo.js';
import { applyRefund } from './refunds.service.js';
import { recordDebitOutcome } from './renewal-charges.service.js';
import { recordWebhookEvent } from './webhook-events.repo.js';

interface RazorpayEvent {
  event?: unknown;
  payload?: {
    payment?: {
      entity?: {
        id?: unknown;
        order_id?: unknown;
        amount?: unknown;
        token_id?: unknown;
        error_description?: unknown;
        notes?: { purpose?: unknown; renewal_id?: unknown; attempt?: unknown; organization_id?: unknown };
      };
    };
    order?: { entity?: { id?: unknown } };
    refund?: { entity?: { id?: unknown; payment_id?: unknown; amount?: unknown } };
    token?: { entity?: { id?: unknown } };
  };
}

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = (v: unknown) => (typeof v === 'string' && UUID.test(v) ? v : null);
/** Token events after which nothing can be debited from the mandate. */
const MANDATE_ENDING_EVENTS = new Set(['token.cancelled', 'token.paused', 'token.rejected']);

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
    const mandateEvent = await applyMandateEvent(txDeps, actor, type, event);
    if (mandateEvent) return mandateEvent;
    if ((type === 'payment.captured' || type === 'order.paid') && paymentId && orderId) {
      try {
        const result = await applyConfirmedPayment(txDeps, actor, {
          providerOrderId: orderId,
          providerPaymentId: paymentId,
          paidAmountPaise: amount,
        });
        if (!result?.changed) return { applied: false, duplicate: false };
        return {
          applied: true,
          duplicate: false,
          counted: () => countOnlinePayment(deps.metrics.business, 'webhook', result.order),
        };
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
  outcome.counted?.();
  return { applied: outcome.applied, duplicate: outcome.duplicate };
}

interface WebhookOutcome {
  applied: boolean;
  duplicate: boolean;
  /** Counts what was applied (core/metrics), called once the transaction committed. */
  counted?: () => void;
}

/**
 * The events of card mandates (docs/decisions/027), told apart by the notes the portal gave their
 * orders and payments: a renewal debit's outcome, an authorization paid, a token ended at the bank.
 * Null for any other event.
 */
async function applyMandateEvent(
  deps: Deps,
  actor: SystemActor,
  type: string,
  event: RazorpayEvent,
): Promise<WebhookOutcome | null> {
  const ignored = { applied: false, duplicate: false };
  if (MANDATE_ENDING_EVENTS.has(type)) {
    const token = str(event.payload?.token?.entity?.id);
    const applied = token ? await mandateEndedByWebhook(deps, actor, { token, event: type }) : false;
    return { applied, duplicate: false };
  }
  const payment = event.payload?.payment?.entity;
  const paymentId = str(payment?.id);
  const orderId = str(payment?.order_id);
  const notes = payment?.notes;
  if (!paymentId || !orderId || !notes) return null;
  if (notes.purpose === 'renewal') {
    const renewalId = uuid(notes.renewal_id);
    const attempt = Number(notes.attempt);
    const outcome: MandateCharge | null =
      type === 'payment.captured'
        ? { status: 'captured', providerPaymentId: paymentId }
        : type === 'payment.failed'
          ? { status: 'failed', reason: str(payment?.error_description) ?? 'The bank declined the debit.' }
          : null;
    if (!renewalId || !Number.isSafeInteger(attempt) || attempt < 1 || !outcome) return ignored;
    const recorded = await recordDebitOutcome(deps, actor, {
      renewalId,
      attempt,
      outcome,
      providerOrderId: orderId,
    });
    return recorded
      ? { applied: true, duplicate: false, counted: recorded.counted }
      : { applied: false, duplicate: false };
  }
  if (notes.purpose === 'mandate') {
    const organizationId = uuid(notes.organization_id);
    const token = str(payment?.token_id);
    if (type !== 'payment.captured' || !organizationId || !token) return ignored;
    const applied = await mandateAuthorizedByWebhook(deps, actor, {
      organizationId,
      orderId,
      paymentId,
      token,
    });
    return { applied, duplicate: false };
  }
  return null;
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
    if (!applied.changed) return { applied: false, duplicate: true };
    return { applied: true, duplicate: false, counted: () => deps.metrics.business.refunded(amount) };
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) {
      deps.log.warn({ eventId, refundId, providerPaymentId, err: error }, 'webhook refund not recorded');
      return ignored;
    }
    throw error;
  }
}
