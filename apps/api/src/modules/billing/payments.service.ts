import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  formatRupees,
  messages,
  type billingListQuerySchema,
  type createPaymentBodySchema,
  type PaymentRecordMethod,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { issueInvoice } from '../invoices/invoices.service.js';
import { deliverAll } from '../../core/mail.js';
import { toPaymentDto } from './dto.js';
import { runIdempotent } from './idempotency.service.js';
import { lockOrganization } from './ledger.repo.js';
import {
  findPayment,
  findPaymentByReference,
  insertPayment,
  listPaymentRows,
  type PaymentRow,
} from './payments.repo.js';
import { listScope, organizationFor, paged, requirePlatformBilling } from './rules.js';
import { findSubscription } from './subscriptions.repo.js';

type CreatePaymentInput = z.output<typeof createPaymentBodySchema>;

export interface ManualPayment {
  organizationId: string;
  subscriptionId: string | null;
  amountPaise: number;
  paymentMethod: Exclude<PaymentRecordMethod, 'ONLINE'>;
  paymentCapture: boolean;
  /** The transaction id the administrator typed; also the proof reference. */
  manualReferenceNumber: string | null;
  paymentProofReference: string | null;
  receivedBy: string;
  paymentNotes: string;
  paymentDate: Date | null;
  actorUserId: string;
}

/**
 * Records a payment received outside the portal, status CREATED, and issues its tax invoice when
 * the money was received (`paymentCapture`). The caller holds the organization lock
 * (`lockOrganization`), so the same transaction id cannot be recorded twice for one organization,
 * even by concurrent requests: a bank transfer is never counted twice. The receipt mails are
 * delivered by the caller after commit.
 */
export async function insertManualPayment(
  tx: Db,
  input: ManualPayment,
): Promise<{ payment: PaymentRow; receiptOutboxIds: string[] }> {
  if (
    input.manualReferenceNumber &&
    (await findPaymentByReference(tx, input.organizationId, input.manualReferenceNumber))
  ) {
    throw conflict(messages.billing.duplicateTransaction);
  }
  const row = await insertPayment(tx, {
    organizationId: input.organizationId,
    subscriptionId: input.subscriptionId,
    amountPaise: input.amountPaise,
    paymentStatus: 'CREATED',
    paymentMethod: input.paymentMethod,
    paymentCapture: input.paymentCapture,
    manualReferenceNumber: input.manualReferenceNumber,
    paymentProofReference: input.paymentProofReference,
    receivedBy: input.receivedBy,
    paymentNotes: input.paymentNotes,
    paymentDate: input.paymentDate,
    refundAmountPaise: 0,
    createdBy: input.actorUserId,
  });
  await recordActivity(tx, {
    organizationId: row.organizationId,
    actorUserId: input.actorUserId,
    action: 'created',
    entityType: 'payment',
    entityId: row.id,
    message: `Recorded a ${row.paymentMethod.toLowerCase().replace('_', ' ')} payment of ${formatRupees(row.amountPaise)}${row.manualReferenceNumber ? ` (transaction ${row.manualReferenceNumber})` : ''}`,
  });
  if (!row.paymentCapture) return { payment: row, receiptOutboxIds: [] };
  const subscription = row.subscriptionId
    ? await findSubscription(tx, row.subscriptionId, row.organizationId)
    : null;
  const { outboxIds } = await issueInvoice(tx, { payment: row, subscription });
  return { payment: row, receiptOutboxIds: outboxIds };
}

/** POST /api/auth/payments. An optional Idempotency-Key makes a retry record nothing twice. */
export async function createPayment(
  app: FastifyInstance,
  auth: Actor,
  body: CreatePaymentInput,
  key: string | null,
) {
  requirePlatformBilling(auth);
  const organizationId = organizationFor(auth, body.organizationId);
  return runIdempotent(
    app,
    { userId: auth.userId, key, route: 'POST /api/auth/payments', payload: body },
    async (tx) => {
      if (!(await lockOrganization(tx, organizationId))) throw notFound(messages.users.organizationNotFound);
      if (body.subscriptionId && !(await findSubscription(tx, body.subscriptionId, organizationId))) {
        throw notFound(messages.subscription.notFound);
      }
      const { payment, receiptOutboxIds } = await insertManualPayment(tx, {
        organizationId,
        subscriptionId: body.subscriptionId,
        amountPaise: body.amountPaise,
        paymentMethod: body.paymentMethod,
        paymentCapture: body.paymentCapture,
        manualReferenceNumber: body.manualReferenceNumber,
        paymentProofReference: body.paymentProofReference,
        receivedBy: body.receivedBy,
        paymentNotes: body.paymentNotes,
        paymentDate: body.paymentDate ? new Date(body.paymentDate) : null,
        actorUserId: auth.userId,
      });
      return {
        status: 201,
        body: { success: true as const, data: toPaymentDto(payment) },
        afterCommit: () => deliverAll(app, receiptOutboxIds),
      };
    },
  );
}

export async function getPayment(app: FastifyInstance, auth: Actor, id: string) {
  const row = await findPayment(app.db, id, tenantScope(auth));
  if (!row) throw notFound(messages.billing.paymentNotFound);
  return toPaymentDto(row);
}

export async function listPayments(
  app: FastifyInstance,
  auth: Actor,
  query: z.output<typeof billingListQuerySchema>,
) {
  const organizationId = listScope(auth, query.organizationId);
  return paged(query, (window) => listPaymentRows(app.db, organizationId, window), toPaymentDto);
}
