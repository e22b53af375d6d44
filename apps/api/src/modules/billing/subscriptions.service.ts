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
import { conflict, notFound } from '../../lib/errors.js';
import { pageEnvelope } from '../../lib/paging.js';
import { tenantScope, type Actor, type SystemActor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import type { Deps } from '../../core/deps.js';
import { toSubscriptionDto } from './dto.js';
import { runIdempotent } from './idempotency.service.js';
import { insertLedgerEntries, lockOrganization, type LedgerInsert } from './ledger.repo.js';
import { findPayment, setPaymentSubscription } from './payments.repo.js';
import {
  actingUserId,
  checkAmounts,
  listScope,
  newPeriod,
  organizationFor,
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
}

/**
 * Inserts a subscription row from checked terms (amounts recomputed by the caller), in the caller's
 * transaction (`withDb(deps, tx)`).
 */
export async function insertSubscriptionRecord(
  deps: Deps,
  actor: Actor | SystemActor,
  input: NewSubscription,
): Promise<SubscriptionRow> {
  const { terms, amounts } = input;
  const actorUserId = actingUserId(actor);
  const tx = deps.db;
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
    createdBy: actorUserId,
  });
  await recordActivity(tx, {
    organizationId: row.organizationId,
    actorUserId,
    action: 'created',
    entityType: 'subscription',
    entityId: row.id,
    message: `Created a subscription of ${formatCount(row.totalInterviewCredits)} interview credits (${formatRupees(row.grandTotalAmountPaise)}) valid until ${formatDate(row.validUntil)}`,
  });
  return row;
}

/**
 * Ledger grants of a subscription set up by the platform: its interview credits, and its demo trials
 * as a separate grant, in the caller's transaction. References make each grant unique per subscription.
 */
export async function grantSubscriptionCredits(
  deps: Deps,
  actor: Actor,
  input: { subscription: SubscriptionRow },
) {
  const row = input.subscription;
  const actorUserId = actor.userId;
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
  return insertLedgerEntries(deps.db, grants);
}

/** POST /api/auth/subscriptions. An optional Idempotency-Key makes a retry create nothing twice. */
export async function createSubscription(
  deps: Deps,
  actor: Actor,
  input: { body: CreateSubscriptionInput; key: string | null },
) {
  const { body, key } = input;
  requirePlatformBilling(actor);
  const organizationId = organizationFor(actor, body.organizationId);
  const amounts = checkAmounts(body);
  return runIdempotent(deps, actor, {
    key,
    route: 'POST /api/auth/subscriptions',
    payload: body,
    work: async (txDeps) => {
      const tx = txDeps.db;
      if (!(await lockOrganization(tx, organizationId))) throw notFound(messages.users.organizationNotFound);
      const payment = body.paymentId ? await findPayment(tx, body.paymentId, organizationId) : null;
      if (body.paymentId && !payment) throw notFound(messages.billing.paymentNotFound);
      if (payment?.subscriptionId) throw conflict(messages.billing.paymentLinkedElsewhere);
      const row = await insertSubscriptionRecord(txDeps, actor, {
        organizationId,
        terms: body,
        amounts,
        paymentId: payment?.id ?? null,
        paid: body.subscription,
        ...newPeriod(),
      });
      if (payment) await setPaymentSubscription(tx, payment.id, row.id);
      await grantSubscriptionCredits(txDeps, actor, { subscription: row });
      return {
        status: 201,
        body: { success: true as const, data: toSubscriptionDto(row) },
        afterCommit: async () => deps.metrics.business.creditsSold('subscription', row.totalInterviewCredits),
      };
    },
  });
}

/**
 * PUT /api/auth/subscriptions/:id: attach the payment record (the last step of onboarding call by
 * call) or change the status.
 */
export async function updateSubscription(
  deps: Deps,
  actor: Actor,
  input: { id: string; body: UpdateSubscriptionInput },
) {
  const { id, body } = input;
  const scope = tenantScope(actor);
  return deps.db.transaction(async (tx) => {
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
      actorUserId: actor.userId,
      action: 'updated',
      entityType: 'subscription',
      entityId: row.id,
      message: `Updated a subscription: ${notes.join(', ')}`,
    });
    return toSubscriptionDto(row);
  });
}

export async function getSubscription(deps: Deps, actor: Actor, input: { id: string }) {
  const row = await findSubscription(deps.db, input.id, tenantScope(actor));
  if (!row) throw notFound(messages.subscription.notFound);
  return toSubscriptionDto(row);
}

export async function listSubscriptions(
  deps: Deps,
  actor: Actor,
  query: z.output<typeof billingListQuerySchema>,
) {
  const organizationId = listScope(actor, query.organizationId);
  const { rows, total } = await listSubscriptionRows(deps.db, organizationId, query);
  return pageEnvelope(query, rows.map(toSubscriptionDto), total);
}
