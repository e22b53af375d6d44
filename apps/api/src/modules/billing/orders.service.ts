import {
  computeAmounts,
  DEFAULT_GST_RATE_BP,
  formatCount,
  formatRupees,
  messages,
  ORDERABLE_RENEWAL_STATUSES,
  PLATFORM_PRICE_PER_CREDIT_PAISE,
  SANDBOX_DECLINED_CARD,
  type CreateOrderBody,
  type OrderCreated,
  type PaymentVerified,
  type RenewalStatus,
  type SandboxPayBody,
  type VerifyPaymentBody,
} from '@portal/shared';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import { tenantScope, type Actor, type SystemActor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { withDb, type Deps } from '../../core/deps.js';
import { issueInvoice, requireSellerTaxProfile } from '../invoices/index.js';
import { notifyOrganizationAdmins } from '../notifications/index.js';
import { findOrganization } from '../organizations/index.js';
import { countOnlinePayment } from './business-metrics.js';
import { toOrderDto, toPaymentDto } from './dto.js';
import { creditBalance, insertLedgerEntryOnce, lockOrganization } from './ledger.repo.js';
import {
  findOrderByProviderId,
  insertOrder,
  lockOrderByProviderId,
  markOrderFailed,
  updateOrder,
  type OrderRow,
} from './orders.repo.js';
import { findPayment, insertPayment, setPaymentSubscription, type PaymentRow } from './payments.repo.js';
import { isSandbox } from '../../core/payments/index.js';
import { actingUserId, addOneMonth, organizationFor, sellingTerms, upgradeQuote } from './rules.js';
import { findPlan, findRenewal } from './renewals.repo.js';
import { applyUpgradeOrder, settleRenewalOrder } from './renewals.service.js';
import { latestActiveValidUntil } from './subscriptions.repo.js';
import { insertSubscriptionRecord } from './subscriptions.service.js';

/**
 * Online purchase of credits by a tenant admin: order → checkout → verify. The amount
 * is computed here from the platform list price (PLATFORM_PRICE_PER_CREDIT_PAISE, ₹100 per credit)
 * plus 18% GST; a client never sends it. Verify checks the signature against the order id stored
 * here, never a client's amount or order.
 */
function priceCredits(credits: number) {
  return computeAmounts({
    credits,
    pricePerCreditPaise: PLATFORM_PRICE_PER_CREDIT_PAISE,
    taxRateBp: DEFAULT_GST_RATE_BP,
  });
}

function providerMessage(error: unknown): string {
  const e = error as { error?: { description?: unknown }; message?: unknown } | null;
  const text = e?.error?.description ?? e?.message;
  return typeof text === 'string' && text ? text : 'the payment provider did not answer';
}

/** POST /api/admin/payment/order. */
export async function createOrder(
  deps: Deps,
  actor: Actor,
  input: { body: CreateOrderBody },
): Promise<OrderCreated> {
  const { body } = input;
  const organizationId = organizationFor(actor, body.organizationId);
  if (!(await findOrganization(deps, actor, { id: organizationId }))) {
    throw notFound(messages.users.organizationNotFound);
  }
  const amounts = priceCredits(body.credits);
  return placeOrder(deps, actor, {
    organizationId,
    credits: body.credits,
    amountPaise: amounts.grandTotalPaise,
    renewalId: null,
    upgradeToCredits: null,
  });
}

/**
 * POST /api/auth/renewals/:id/order: an online payment of a renewal waiting for the customer (one
 * above the mandate's silent limit, which the customer approves in checkout, or one whose debit was
 * declined or whose period lapsed). Paid, it settles the renewal (`applyConfirmedPayment`).
 */
export async function createRenewalOrder(
  deps: Deps,
  actor: Actor,
  input: { id: string },
): Promise<OrderCreated> {
  const renewal = await findRenewal(deps.db, input.id, tenantScope(actor));
  if (!renewal) throw notFound(messages.renewals.renewalNotFound);
  if (!(ORDERABLE_RENEWAL_STATUSES as readonly RenewalStatus[]).includes(renewal.status)) {
    throw conflict(messages.renewals.notPayable);
  }
  return placeOrder(deps, actor, {
    organizationId: renewal.organizationId,
    credits: renewal.credits,
    amountPaise: renewal.amountPaise,
    renewalId: renewal.id,
    upgradeToCredits: null,
  });
}

/**
 * POST /api/auth/billing-plan/upgrade: an order for the running period's share of the extra credits
 * (`upgradeQuote`); paid, the plan has the new credits a month from now (`applyConfirmedPayment`).
 */
export async function createUpgradeOrder(
  deps: Deps,
  actor: Actor,
  input: { organizationId?: string | undefined; creditsPerPeriod: number },
): Promise<OrderCreated> {
  const organizationId = organizationFor(actor, input.organizationId);
  const plan = await findPlan(deps.db, organizationId);
  if (!plan) throw notFound(messages.renewals.planNotFound);
  const quote = upgradeQuote(plan, input.creditsPerPeriod, deps.clock.now());
  return placeOrder(deps, actor, {
    organizationId,
    credits: quote.credits,
    amountPaise: quote.amounts.grandTotalPaise,
    renewalId: null,
    upgradeToCredits: input.creditsPerPeriod,
  });
}

/** An order at the provider for `amountPaise`, kept here so verify never trusts the client's. */
async function placeOrder(
  deps: Deps,
  actor: Actor,
  input: {
    organizationId: string;
    credits: number;
    amountPaise: number;
    renewalId: string | null;
    upgradeToCredits: number | null;
  },
): Promise<OrderCreated> {
  const { organizationId, credits, amountPaise } = input;
  const provider = deps.payments;
  // Every captured payment gets a tax invoice: no money is taken before the seller can issue one.
  await requireSellerTaxProfile(deps, actor);
  // Razorpay allows at most 40 characters.
  const receipt = `rcpt_${randomToken(18)}`;
  const base = {
    organizationId,
    provider: provider.name,
    credits,
    amountPaise,
    currency: 'INR',
    receipt,
    renewalId: input.renewalId,
    upgradeToCredits: input.upgradeToCredits,
    createdBy: actor.userId,
  };
  let providerOrderId: string;
  try {
    const order = await provider.createOrder({
      amountPaise: amountPaise,
      receipt,
      notes: {
        organizationId,
        credits: String(credits),
        ...(input.renewalId ? { renewalId: input.renewalId } : {}),
      },
    });
    providerOrderId = order.id;
  } catch (error) {
    const reason = providerMessage(error);
    deps.log.warn({ err: error, organizationId }, 'payment order failed at the provider');
    await deps.db.transaction(async (tx) => {
      const failed = await insertOrder(tx, {
        ...base,
        providerOrderId: `failed_${randomToken(12)}`,
        status: 'order_failed',
      });
      await recordActivity(tx, {
        organizationId,
        actorUserId: actor.userId,
        action: 'other',
        entityType: 'payment_order',
        entityId: failed.id,
        message: `Payment order for ${formatCount(credits)} credits failed: ${reason}`,
      });
    });
    throw new AppError(502, `${messages.fallback.createPaymentOrder}: ${reason}`, 'ORDER_FAILED', {
      status: ['order_failed'],
    });
  }

  const order = await deps.db.transaction(async (tx) => {
    const row = await insertOrder(tx, { ...base, providerOrderId, status: 'order_created' });
    await recordActivity(tx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'created',
      entityType: 'payment_order',
      entityId: row.id,
      message: `Created a payment order for ${formatCount(credits)} interview credits (${formatRupees(row.amountPaise)})`,
    });
    return row;
  });
  return {
    status: 'order_created',
    message: messages.payment.orderCreated,
    order: toOrderDto(order),
    checkout: provider.checkoutConfig(),
  };
}

export interface AppliedPayment {
  order: OrderRow;
  payment: PaymentRow;
  /** false when the order had already been verified (nothing changed). */
  changed: boolean;
}

/**
 * Applies a payment the provider confirmed (a verified checkout signature, or a signed webhook), as
 * part of the caller's transaction (`withDb(deps, tx)`): the order row is locked until the caller
 * commits, so verify and webhooks of the same payment,
 * however concurrent, apply it once. Records the payment (CAPTURED), a paid subscription of the
 * purchased credits for the month that starts when the organization's current period ends (now, if
 * none runs), so the running period and the one bought ahead stay apart, the purchase grant
 * in the ledger, the order status, a notification to the organization's admins and an activity
 * entry. Null when the order is unknown.
 */
export async function applyConfirmedPayment(
  deps: Deps,
  actor: Actor | SystemActor,
  confirmed: ConfirmedPayment,
): Promise<AppliedPayment | null> {
  return deps.db.transaction((tx) => applyInTransaction(withDb(deps, tx), actor, confirmed));
}

interface ConfirmedPayment {
  providerOrderId: string;
  providerPaymentId: string;
  /** What the provider says was paid (webhooks); checked against the order. */
  paidAmountPaise?: number;
}

async function applyInTransaction(
  deps: Deps,
  actor: Actor | SystemActor,
  confirmed: ConfirmedPayment,
): Promise<AppliedPayment | null> {
  const tx = deps.db;
  const actorUserId = actingUserId(actor);
  const order = await lockOrderByProviderId(tx, confirmed.providerOrderId);
  if (!order) return null;
  if (order.status === 'payment_verified' && order.paymentId) {
    const payment = await findPayment(tx, order.paymentId, null);
    return { order, payment: payment!, changed: false };
  }
  if (confirmed.paidAmountPaise !== undefined && confirmed.paidAmountPaise !== order.amountPaise) {
    throw badRequest(messages.billing.amountMismatch);
  }
  await lockOrganization(tx, order.organizationId);
  if (order.renewalId) {
    const payment = await settleRenewalOrder(deps, actor, {
      renewalId: order.renewalId,
      providerPaymentId: confirmed.providerPaymentId,
      providerOrderId: order.providerOrderId,
      provider: order.provider,
    });
    // Settled meanwhile by other means (the operator recorded a payment): the money buys credits below.
    if (payment) {
      const updated = await updateOrder(tx, order.id, { status: 'payment_verified', paymentId: payment.id });
      return { order: updated, payment, changed: true };
    }
  }
  if (order.upgradeToCredits) {
    const payment = await applyUpgradeOrder(deps, actor, {
      organizationId: order.organizationId,
      credits: order.credits,
      amountPaise: order.amountPaise,
      upgradeToCredits: order.upgradeToCredits,
      providerPaymentId: confirmed.providerPaymentId,
      providerOrderId: order.providerOrderId,
      provider: order.provider,
    });
    const updated = await updateOrder(tx, order.id, { status: 'payment_verified', paymentId: payment.id });
    return { order: updated, payment, changed: true };
  }
  const now = deps.clock.now();
  const { terms, amounts } = sellingTerms({
    credits: order.credits,
    pricePerCreditPaise: PLATFORM_PRICE_PER_CREDIT_PAISE,
    taxRateBp: DEFAULT_GST_RATE_BP,
  });
  const currentEnd = await latestActiveValidUntil(tx, order.organizationId);
  const start = currentEnd && currentEnd > now ? currentEnd : now;

  let payment = await insertPayment(tx, {
    organizationId: order.organizationId,
    amountPaise: order.amountPaise,
    providerPaymentId: confirmed.providerPaymentId,
    providerOrderId: order.providerOrderId,
    paymentStatus: 'CAPTURED',
    paymentMethod: 'ONLINE',
    paymentCapture: true,
    paymentNotes: `Online payment (${order.provider})`,
    paymentDate: now,
    createdBy: actorUserId,
  });
  const subscription = await insertSubscriptionRecord(deps, actor, {
    organizationId: order.organizationId,
    terms,
    amounts,
    paymentId: payment.id,
    paid: true,
    validFrom: start,
    validUntil: addOneMonth(start),
  });
  await setPaymentSubscription(tx, payment.id, subscription.id);
  payment = { ...payment, subscriptionId: subscription.id };
  await issueInvoice(deps, actor, { payment, subscription });
  await insertLedgerEntryOnce(tx, {
    organizationId: order.organizationId,
    delta: order.credits,
    reason: 'purchase',
    subscriptionId: subscription.id,
    paymentId: payment.id,
    reference: confirmed.providerPaymentId,
    note: `Bought ${formatCount(order.credits)} credits online`,
    createdBy: actorUserId,
  });
  const updated = await updateOrder(tx, order.id, { status: 'payment_verified', paymentId: payment.id });
  await notifyOrganizationAdmins(deps, actor, {
    organizationId: order.organizationId,
    kind: 'payment_verified',
    title: messages.payment.verified,
    body: `${formatCount(order.credits)} interview credits were added (${formatRupees(order.amountPaise)}).`,
    link: '/dashboard/billing',
  });
  await recordActivity(tx, {
    organizationId: order.organizationId,
    actorUserId,
    action: 'updated',
    entityType: 'payment_order',
    entityId: order.id,
    message: `Payment ${confirmed.providerPaymentId} verified: ${formatCount(order.credits)} interview credits added`,
  });
  return { order: updated, payment, changed: true };
}

/** POST /api/admin/payment/verify: the checkout's answer, checked against the order stored here. */
export async function verifyPayment(
  deps: Deps,
  actor: Actor,
  input: { body: VerifyPaymentBody },
): Promise<PaymentVerified> {
  const { body } = input;
  const provider = deps.payments;
  const order = await findOrderByProviderId(deps.db, body.razorpay_order_id, tenantScope(actor));
  if (!order) throw notFound(messages.payment.orderNotFound);
  const valid = provider.verifyPayment(
    order.providerOrderId,
    body.razorpay_payment_id,
    body.razorpay_signature,
  );
  if (!valid) {
    await deps.db.transaction(async (tx) => {
      if (await markOrderFailed(tx, order.providerOrderId)) {
        await recordActivity(tx, {
          organizationId: order.organizationId,
          actorUserId: actor.userId,
          action: 'updated',
          entityType: 'payment_order',
          entityId: order.id,
          message: 'Payment verification failed: the signature does not match',
        });
      }
    });
    throw new AppError(400, messages.payment.signatureInvalid, 'PAYMENT_FAILED', {
      status: ['payment_failed'],
    });
  }
  const applied = await deps.db.transaction(async (tx) => {
    const result = await applyConfirmedPayment(withDb(deps, tx), actor, {
      providerOrderId: order.providerOrderId,
      providerPaymentId: body.razorpay_payment_id,
    });
    if (result && !result.changed && result.payment.providerPaymentId !== body.razorpay_payment_id) {
      // The order was paid by another payment; this one does not add credits.
      throw conflict(messages.billing.orderNotPayable);
    }
    return result ? { ...result, balance: await creditBalance(tx, order.organizationId) } : null;
  });
  if (!applied) throw notFound(messages.payment.orderNotFound);
  if (applied.changed) countOnlinePayment(deps.metrics.business, 'checkout', applied.order);
  return {
    status: 'payment_verified',
    message: messages.payment.verified,
    order: toOrderDto(applied.order),
    payment: toPaymentDto(applied.payment),
    creditBalance: applied.balance,
  };
}

/**
 * POST /api/admin/payment/sandbox/pay: the sandbox's test checkout. Answers what Razorpay Checkout
 * would hand the browser; 404 unless the sandbox is the active provider.
 */
export async function sandboxPay(deps: Deps, actor: Actor, input: { body: SandboxPayBody }) {
  const { body } = input;
  const provider = deps.payments;
  if (!isSandbox(provider)) throw notFound();
  const order = await findOrderByProviderId(deps.db, body.razorpay_order_id, tenantScope(actor));
  if (!order) throw notFound(messages.payment.orderNotFound);
  if (order.status !== 'order_created' && order.status !== 'payment_failed') {
    throw conflict(messages.billing.orderNotPayable);
  }
  if (body.cardNumber === SANDBOX_DECLINED_CARD) {
    await markOrderFailed(deps.db, order.providerOrderId);
    throw new AppError(402, messages.billing.cardDeclined, 'PAYMENT_FAILED', { status: ['payment_failed'] });
  }
  return provider.pay(order.providerOrderId);
}
