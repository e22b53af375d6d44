import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  formatCount,
  formatDate,
  formatRupees,
  messages,
  type Amounts,
  type billingListQuerySchema,
  type createSubscriptionBodySchema,
  type subscriptionTermsSchema,
  type updateSubscriptionBodySchema,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { toSubscriptionDto } from './dto.js';
import { runIdempotent } from './idempotency.service.js';
import { insertLedgerEntries, lockOrganization, type LedgerInsert } from './ledger.repo.js';
import { findPayment, setPaymentSubscription } from './payments.repo.js';
import {
  addOneMonth,
  checkAmounts,
  listScope,
  organizationFor,
  paged,
  requirePlatformBilling,
} from './rules.js';
import {
  findSubscription,
  insertSubscription,
  listSubscriptionRows,
  updateSubscriptionRow,
  type SubscriptionRow,
} from './subscriptions.repo.js';

export type SubscriptionTermsInput = z.output<typeof subscriptionTermsSchema>;
type CreateSubscriptionInput = z.output<typeof createSubscriptionBodySchema>;
type UpdateSubscriptionInput = z.output<typeof updateSubscriptionBodySchema>;

export interface NewSubscription {
  organizationId: string;
  terms: SubscriptionTermsInput;
  amounts: Amounts;
  paymentId: string | null;
  /** The subscription's `subscription` flag: true when paid (manual payment or online). */
  paid: boolean;
  validFrom: Date;
  validUntil: Date;
  actorUserId: string | null;
}

/** Inserts a subscription row from checked terms (amounts recomputed by the caller). */
export async function insertSubscriptionRecord(tx: Db, input: NewSubscription): Promise<SubscriptionRow> {
  const { terms, amounts } = input;
  const row = await insertSubscription(tx, {
    organizationId: input.organizationId,
    paymentId: input.paymentId,
    subscribedProducts: terms.subscribedProducts,
    billingCycle: terms.billingCycle,
    totalInterviewCredits: terms.totalInterviewCredits,
    interviewCreditsPricePaise: terms.interviewCreditsPricePaise,
    totalPositionCredits: terms.totalPositionCredits,
    positionCreditsPricePaise: terms.positionCreditsPricePaise,
    taxRateBp: terms.taxRateBp,
    taxInclusive: terms.taxInclusive,
    subTotalPaise: amounts.subTotalPaise,
    discountPercentage: terms.discountPercentage,
    discountAmountPaise: amounts.discountAmountPaise,
    discountCode: terms.discountCode,
    totalAmountPaise: amounts.totalAmountPaise,
    taxAmountPaise: amounts.taxAmountPaise,
    grandTotalAmountPaise: amounts.grandTotalPaise,
    validFrom: input.validFrom,
    validUntil: input.validUntil,
    status: 'ACTIVE',
    subscription: input.paid,
    demoTrials: terms.demoTrials,
    createdBy: input.actorUserId,
  });
  await recordActivity(tx, {
    organizationId: row.organizationId,
    actorUserId: input.actorUserId,
    action: 'created',
    entityType: 'subscription',
    entityId: row.id,
    message: `Created a subscription of ${formatCount(row.totalInterviewCredits)} interview credits (${formatRupees(row.grandTotalAmountPaise)}) valid until ${formatDate(row.validUntil)}`,
  });
  return row;
}

/**
 * Ledger grants of a subscription set up by the platform: its interview credits, and its demo trials
 * as a separate grant. References make each grant unique per subscription.
 */
export async function grantSubscriptionCredits(tx: Db, row: SubscriptionRow, actorUserId: string | null) {
  const grants: LedgerInsert[] = [
    {
      organizationId: row.organizationId,
      delta: row.totalInterviewCredits,
      reason: 'subscription',
      subscriptionId: row.id,
      paymentId: row.paymentId,
      reference: `subscription:${row.id}`,
      note: `Subscription credits until ${formatDate(row.validUntil)}`,
      createdBy: actorUserId,
    },
  ];
  if (row.demoTrials > 0) {
    grants.push({
      organizationId: row.organizationId,
      delta: row.demoTrials,
      reason: 'demo_trial',
      subscriptionId: row.id,
      reference: `demo:${row.id}`,
      note: `${row.demoTrials} demo ${row.demoTrials === 1 ? 'trial' : 'trials'}`,
      createdBy: actorUserId,
    });
  }
  return insertLedgerEntries(tx, grants);
}

/** A new subscription starts now and runs one calendar month. */
export function newPeriod(now = new Date()) {
  return { validFrom: now, validUntil: addOneMonth(now) };
}

/** POST /api/auth/subscriptions. An optional Idempotency-Key makes a retry create nothing twice. */
export async function createSubscription(
  app: FastifyInstance,
  auth: Actor,
  body: CreateSubscriptionInput,
  key: string | null,
) {
  requirePlatformBilling(auth);
  const organizationId = organizationFor(auth, body.organizationId);
  const amounts = checkAmounts(body);
  return runIdempotent(
    app,
    { userId: auth.userId, key, route: 'POST /api/auth/subscriptions', payload: body },
    async (tx) => {
      if (!(await lockOrganization(tx, organizationId))) throw notFound(messages.users.organizationNotFound);
      const payment = body.paymentId ? await findPayment(tx, body.paymentId, organizationId) : null;
      if (body.paymentId && !payment) throw notFound(messages.billing.paymentNotFound);
      if (payment?.subscriptionId) throw conflict(messages.billing.paymentLinkedElsewhere);
      const row = await insertSubscriptionRecord(tx, {
        organizationId,
        terms: body,
        amounts,
        paymentId: payment?.id ?? null,
        paid: body.subscription,
        ...newPeriod(),
        actorUserId: auth.userId,
      });
      if (payment) await setPaymentSubscription(tx, payment.id, row.id);
      await grantSubscriptionCredits(tx, row, auth.userId);
      return { status: 201, body: { success: true as const, data: toSubscriptionDto(row) } };
    },
  );
}

/**
 * PUT /api/auth/subscriptions/:id: attach the payment record (the last step of onboarding call by
 * call) or change the status.
 */
export async function updateSubscription(
  app: FastifyInstance,
  auth: Actor,
  id: string,
  body: UpdateSubscriptionInput,
) {
  const scope = tenantScope(auth);
  return app.db.transaction(async (tx) => {
    const current = await findSubscription(tx, id, scope);
    if (!current) throw notFound(messages.subscription.notFound);
    const changes: Partial<SubscriptionRow> = {};
    const notes: string[] = [];
    if (body.paymentId !== undefined && body.paymentId !== current.paymentId) {
      if (body.paymentId !== null) {
        const payment = await findPayment(tx, body.paymentId, current.organizationId);
        if (!payment) throw notFound(messages.billing.paymentNotFound);
        if (payment.subscriptionId && payment.subscriptionId !== current.id) {
          throw conflict(messages.billing.paymentLinkedElsewhere);
        }
        if (!payment.subscriptionId) await setPaymentSubscription(tx, payment.id, current.id);
        notes.push('attached its payment');
      } else {
        notes.push('detached its payment');
      }
      changes.paymentId = body.paymentId;
    }
    if (body.status && body.status !== current.status) {
      changes.status = body.status;
      notes.push(`set the status to ${body.status}`);
    }
    if (notes.length === 0) return toSubscriptionDto(current);
    const row = await updateSubscriptionRow(tx, id, changes);
    await recordActivity(tx, {
      organizationId: row.organizationId,
      actorUserId: auth.userId,
      action: 'updated',
      entityType: 'subscription',
      entityId: row.id,
      message: `Updated a subscription: ${notes.join(', ')}`,
    });
    return toSubscriptionDto(row);
  });
}

export async function getSubscription(app: FastifyInstance, auth: Actor, id: string) {
  const row = await findSubscription(app.db, id, tenantScope(auth));
  if (!row) throw notFound(messages.subscription.notFound);
  return toSubscriptionDto(row);
}

export async function listSubscriptions(
  app: FastifyInstance,
  auth: Actor,
  query: z.output<typeof billingListQuerySchema>,
) {
  const organizationId = listScope(auth, query.organizationId);
  return paged(query, (window) => listSubscriptionRows(app.db, organizationId, window), toSubscriptionDto);
}
