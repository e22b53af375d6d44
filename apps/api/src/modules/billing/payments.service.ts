import type { z } from 'zod';
import {
  formatRupees,
  messages,
  type billingListQuerySchema,
  type createPaymentBodySchema,
  type PaymentRecordMethod,
} from '@portal/shared';
import { conflict, notFound } from '../../lib/errors.js';
import { pageEnvelope } from '../../lib/paging.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import type { Deps } from '../../core/deps.js';
import { issueInvoice } from '../invoices/index.js';
import { countManualPayment } from './business-metrics.js';
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
import { listScope, organizationFor, requirePlatformBilling } from './rules.js';
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
}

/**
 * Records a payment received outside the portal, status CREATED, and issues its tax invoice when
 * the money was received (`paymentCapture`), in the caller's transaction (`withDb(deps, tx)`). The
 * caller holds the organization lock (`lockOrganization`), so the same transaction id cannot be
 * recorded twice for one organization, even by concurrent requests: a bank transfer is never counted
 * twice. The receipt mails are delivered by the caller after commit.
 */
export async function recordManualPayment(
  deps: Deps,
  actor: Actor,
  input: ManualPayment,
): Promise<{ payment: PaymentRow }> {
  const tx = deps.db;
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
    createdBy: actor.userId,
  });
  await recordActivity(tx, {
    organizationId: row.organizationId,
    actorUserId: actor.userId,
    action: 'created',
    entityType: 'payment',
    entityId: row.id,
    message: `Recorded a ${row.paymentMethod.toLowerCase().replace('_', ' ')} payment of ${formatRupees(row.amountPaise)}${row.manualReferenceNumber ? ` (transaction ${row.manualReferenceNumber})` : ''}`,
  });
  if (!row.paymentCapture) return { payment: row };
  const subscription = row.subscriptionId
    ? await findSubscription(tx, row.subscriptionId, row.organizationId)
    : null;
  await issueInvoice(deps, actor, { payment: row, subscription });
  return { payment: row };
}

/** POST /api/auth/payments. An optional Idempotency-Key makes a retry record nothing twice. */
export async function createPayment(
  deps: Deps,
  actor: Actor,
  input: { body: CreatePaymentInput; key: string | null },
) {
  const { body, key } = input;
  requirePlatformBilling(actor);
  const organizationId = organizationFor(actor, body.organizationId);
  return runIdempotent(deps, actor, {
    key,
    route: 'POST /api/auth/payments',
    payload: body,
    work: async (txDeps) => {
      const tx = txDeps.db;
      if (!(await lockOrganization(tx, organizationId))) throw notFound(messages.users.organizationNotFound);
      if (body.subscriptionId && !(await findSubscription(tx, body.subscriptionId, organizationId))) {
        throw notFound(messages.subscription.notFound);
      }
      const { payment } = await recordManualPayment(txDeps, actor, {
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
      });
      return {
        status: 201,
        body: { success: true as const, data: toPaymentDto(payment) },
        afterCommit: async () => countManualPayment(deps.metrics.business, payment),
      };
    },
  });
}

export async function getPayment(deps: Deps, actor: Actor, input: { id: string }) {
  const row = await findPayment(deps.db, input.id, tenantScope(actor));
  if (!row) throw notFound(messages.billing.paymentNotFound);
  return toPaymentDto(row);
}

export async function listPayments(deps: Deps, actor: Actor, query: z.output<typeof billingListQuerySchema>) {
  const organizationId = listScope(actor, query.organizationId);
  const { rows, total } = await listPaymentRows(deps.db, organizationId, query);
  return pageEnvelope(query, rows.map(toPaymentDto), total);
}
