import { randomUUID } from 'node:crypto';
import {
  formatRupees,
  MANDATE_AUTHORIZATION_PAISE,
  MANDATE_SILENT_LIMIT_PAISE,
  messages,
  type BillingPlan,
  type MandateOrder,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, conflict, notFound, unprocessable } from '../../lib/errors.js';
import type { Actor, SystemActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { findUserDto } from '../../core/identity/users.repo.js';
import { defineJob } from '../../core/jobs.js';
import { isSandbox, mandateRegistrationOf, razorpayRefusal } from '../../core/payments/index.js';
import { findOrganization } from '../organizations/index.js';
import { changePlan, notePlanChange } from './plan-changes.js';
import {
  awaitPaymentInstead,
  findPlan,
  findPlanByMandateToken,
  updatePlan,
  type PlanRow,
} from './renewals.repo.js';
import { organizationFor } from './rules.js';

/**
 * The card mandate renewals are debited from (docs/decisions/027): registered in the sandbox's
 * checkout, or in Razorpay Checkout by a ₹1 authorization payment that is refunded at once; cancelled
 * by the customer here, or at their bank (Razorpay's token webhooks).
 */

/** Razorpay receipts are at most 40 characters. */
const receiptFor = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/**
 * POST /api/admin/payment/sandbox/mandate: the sandbox's checkout registers a card mandate for the
 * caller's organization, for at most the plan's amount a month; debits then go to the mandate.
 */
export async function authorizeSandboxMandate(
  deps: Deps,
  actor: Actor,
  input: { cardNumber: string },
): Promise<BillingPlan> {
  if (!isSandbox(deps.payments)) throw notFound();
  const token = deps.payments.authorizeMandate(input.cardNumber);
  if (!token) {
    throw new AppError(402, messages.billing.cardDeclined, 'PAYMENT_FAILED', { cardNumber: ['declined'] });
  }
  return changePlan(deps, actor.organizationId, async (tx, current) => {
    const updated = await updatePlan(tx, actor.organizationId, {
      collection: 'mandate',
      mandateStatus: 'authorized',
      mandateToken: token,
      mandateMaxPaise: current.amountPaise,
    });
    await notePlanChange(tx, {
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      message: `Card mandate authorized for up to ${formatRupees(current.amountPaise)} a month`,
    });
    return updated;
  });
}

/**
 * POST /api/auth/billing-plan/mandate/order: the authorization order the admin pays in Razorpay
 * Checkout (`recurring: 1`), for a token that debits at most MANDATE_SILENT_LIMIT_PAISE silently: a
 * larger renewal asks for the customer's authentication anyway. 404 unless Razorpay is the provider.
 */
export async function startMandateAuthorization(
  deps: Deps,
  actor: Actor,
  _input: Record<string, never>,
): Promise<MandateOrder> {
  const registration = mandateRegistrationOf(deps.payments);
  if (!registration) throw notFound();
  const organizationId = actor.organizationId;
  const plan = await findPlan(deps.db, organizationId);
  if (!plan) throw notFound(messages.renewals.planNotFound);
  const [user, organization] = await Promise.all([
    findUserDto(deps.db, actor.userId),
    findOrganization(deps, actor, { id: organizationId }),
  ]);
  // Razorpay's customer needs a phone number, which the bank's authentication may use.
  if (!plan.mandateCustomerId && !user?.mobileNo) {
    throw unprocessable(messages.renewals.mandateNeedsMobile);
  }
  const started = await registration.startMandate({
    customerId: plan.mandateCustomerId,
    customer: {
      name: organization?.name ?? user?.username ?? '',
      email: user?.email ?? '',
      contact: user?.mobileNo ?? '',
    },
    maxAmountPaise: MANDATE_SILENT_LIMIT_PAISE,
    receipt: receiptFor('md'),
    notes: { purpose: 'mandate', organization_id: organizationId },
  });
  await changePlan(deps, organizationId, (tx) =>
    updatePlan(tx, organizationId, {
      mandateCustomerId: started.customerId,
      mandateOrderId: started.orderId,
    }),
  );
  return {
    orderId: started.orderId,
    customerId: started.customerId,
    amountPaise: started.amountPaise,
    maxAmountPaise: MANDATE_SILENT_LIMIT_PAISE,
    checkout: deps.payments.checkoutConfig(),
  };
}

/**
 * POST /api/auth/billing-plan/mandate/verify: Checkout's answer for the authorization order. The
 * signature is checked, then the payment's token is asked of Razorpay and becomes the mandate. Asked
 * again (or after the webhook did it), it answers the plan as it is.
 */
export async function confirmMandateAuthorization(
  deps: Deps,
  actor: Actor,
  input: { orderId: string; paymentId: string; signature: string },
): Promise<BillingPlan> {
  const registration = mandateRegistrationOf(deps.payments);
  if (!registration) throw notFound();
  if (!deps.payments.verifyPayment(input.orderId, input.paymentId, input.signature)) {
    throw badRequest(messages.payment.signatureInvalid);
  }
  const organizationId = actor.organizationId;
  const plan = await findPlan(deps.db, organizationId);
  if (!plan) throw notFound(messages.renewals.planNotFound);
  const confirmedBefore = plan.mandateOrderId === null && plan.mandateStatus === 'authorized';
  if (plan.mandateOrderId !== input.orderId && !confirmedBefore) {
    throw conflict(messages.renewals.mandateOrderUnknown);
  }
  const token = confirmedBefore ? null : await registration.registeredToken(input.paymentId);
  if (!confirmedBefore && !token) {
    throw new AppError(402, messages.renewals.mandateNotRegistered, 'PAYMENT_FAILED');
  }
  return changePlan(deps, organizationId, async (tx, current) =>
    token
      ? ((await applyMandateAuthorization(tx, deps, actor, {
          current,
          orderId: input.orderId,
          paymentId: input.paymentId,
          token,
        })) ?? current)
      : current,
  );
}

/**
 * The authorization order's payment registered `token`, in the caller's transaction holding the
 * plan's lock: the plan is collected on the mandate, the ₹1 refunded and a replaced token cancelled,
 * both as jobs. Null when the order is no longer awaited (confirmed already, or replaced).
 */
async function applyMandateAuthorization(
  tx: Db,
  deps: Deps,
  actor: Actor | SystemActor,
  input: { current: PlanRow; orderId: string; paymentId: string; token: string },
): Promise<PlanRow | null> {
  const { current } = input;
  if (current.mandateOrderId !== input.orderId) return null;
  const updated = await updatePlan(tx, current.organizationId, {
    collection: 'mandate',
    mandateStatus: 'authorized',
    mandateToken: input.token,
    mandateMaxPaise: MANDATE_SILENT_LIMIT_PAISE,
    mandateOrderId: null,
  });
  await deps.jobs.send(tx, mandateAuthorizationRefundJob, { paymentId: input.paymentId });
  if (current.mandateStatus === 'authorized' && current.mandateToken && current.mandateCustomerId) {
    await deps.jobs.send(tx, mandateTokenCancelJob, {
      customerId: current.mandateCustomerId,
      token: current.mandateToken,
    });
  }
  await notePlanChange(tx, {
    organizationId: current.organizationId,
    actorUserId: actor.kind === 'user' ? actor.userId : null,
    message: `Card mandate authorized for up to ${formatRupees(MANDATE_SILENT_LIMIT_PAISE)} a debit`,
  });
  return updated;
}

/**
 * Razorpay's `payment.captured` for an authorization order (the customer closed the page before
 * Checkout's answer reached the portal), in the webhook's transaction: the same as verify.
 */
export async function mandateAuthorizedByWebhook(
  deps: Deps,
  actor: SystemActor,
  input: { organizationId: string; orderId: string; paymentId: string; token: string },
): Promise<boolean> {
  const current = await findPlan(deps.db, input.organizationId, true);
  if (!current) return false;
  return (await applyMandateAuthorization(deps.db, deps, actor, { ...input, current })) !== null;
}

/**
 * Razorpay's `token.cancelled`, `token.paused` or `token.rejected` (the customer cancelled the
 * mandate at their bank, or the bank refused it), in the webhook's transaction: nothing is debited
 * from it again, and what is announced waits to be paid. False when no plan has this token.
 */
export async function mandateEndedByWebhook(
  deps: Deps,
  actor: SystemActor,
  input: { token: string; event: string },
): Promise<boolean> {
  const plan = await findPlanByMandateToken(deps.db, input.token);
  if (!plan || plan.mandateStatus !== 'authorized') return false;
  await endMandate(deps.db, actor, plan.organizationId, `Card mandate ended at the bank (${input.event})`);
  return true;
}

async function endMandate(tx: Db, actor: Actor | SystemActor, organizationId: string, message: string) {
  const updated = await updatePlan(tx, organizationId, {
    collection: 'manual',
    mandateStatus: 'cancelled',
    mandateToken: null,
  });
  await awaitPaymentInstead(tx, organizationId);
  await notePlanChange(tx, {
    organizationId,
    actorUserId: actor.kind === 'user' ? actor.userId : null,
    message,
  });
  return updated;
}

/**
 * POST /api/auth/billing-plan/mandate/cancel: the customer cancels the card mandate. Nothing is
 * debited from it again: an announced or declined debit waits to be paid like a manual renewal. With
 * Razorpay the token is deleted there too, by a job.
 */
export async function cancelMandate(
  deps: Deps,
  actor: Actor,
  input: { organizationId?: string | undefined },
): Promise<BillingPlan> {
  const organizationId = organizationFor(actor, input.organizationId);
  return changePlan(deps, organizationId, async (tx, current) => {
    if (current.mandateStatus !== 'authorized') throw conflict(messages.renewals.noMandate);
    if (current.mandateCustomerId && current.mandateToken) {
      await deps.jobs.send(tx, mandateTokenCancelJob, {
        customerId: current.mandateCustomerId,
        token: current.mandateToken,
      });
    }
    return endMandate(
      tx,
      actor,
      organizationId,
      'Card mandate cancelled: renewals are paid through their notice',
    );
  });
}

/** Refunds the ₹1 that authorized a Razorpay mandate. Refused as already refunded: done. */
export const mandateAuthorizationRefundJob = defineJob<{ paymentId: string }>({
  name: 'billing.mandate-authorization-refund',
  queue: () => ({ retryLimit: 10, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 60 }),
  async run(deps, _actor, job) {
    try {
      await deps.payments.refund({
        providerPaymentId: job.data.paymentId,
        amountPaise: MANDATE_AUTHORIZATION_PAISE,
        receipt: `mar_${job.data.paymentId}`,
        notes: { purpose: 'mandate authorization' },
      });
    } catch (error) {
      if (!razorpayRefusal(error)) throw error;
      deps.log.warn({ err: error, paymentId: job.data.paymentId }, 'mandate authorization refund refused');
    }
  },
});

/** Deletes a cancelled or replaced mandate's token at Razorpay. Refused as already gone: done. */
export const mandateTokenCancelJob = defineJob<{ customerId: string; token: string }>({
  name: 'billing.mandate-token-cancel',
  queue: () => ({ retryLimit: 10, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 60 }),
  async run(deps, _actor, job) {
    const registration = mandateRegistrationOf(deps.payments);
    if (!registration) return;
    try {
      await registration.cancelMandate(job.data);
    } catch (error) {
      if (!razorpayRefusal(error)) throw error;
      deps.log.warn({ err: error, token: job.data.token }, 'mandate token deletion refused');
    }
  },
});
