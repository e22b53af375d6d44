import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  formatCount,
  messages,
  type billingListQuerySchema,
  type CreditSummary,
  type UseCreditsBody,
} from '@portal/shared';
import { AppError, notFound, unprocessable } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { touchApiKey } from './api-keys.repo.js';
import type { ApiClient } from './api-key-auth.js';
import { toLedgerDto, toSubscriptionDto } from './dto.js';
import {
  creditBalance,
  findLedgerEntry,
  insertLedgerEntries,
  listLedgerEntries,
  lockOrganization,
} from './ledger.repo.js';
import { organizationFor, paged } from './rules.js';
import { findCurrentAndUpcoming } from './subscriptions.repo.js';

const RECENT_ENTRIES = 10;

/**
 * GET /api/auth/credits: balance (sum of the ledger), the subscription running now and those bought
 * to follow it, and recent entries.
 */
export async function getCreditSummary(
  app: FastifyInstance,
  auth: Actor,
  requestedOrganizationId: string | undefined,
): Promise<CreditSummary> {
  const organizationId = organizationFor(auth, requestedOrganizationId);
  const [balance, subscriptions, recent] = await Promise.all([
    creditBalance(app.db, organizationId),
    findCurrentAndUpcoming(app.db, organizationId, new Date()),
    listLedgerEntries(app.db, organizationId, { limit: RECENT_ENTRIES, offset: 0 }),
  ]);
  return {
    organizationId,
    balance,
    subscription: subscriptions.current ? toSubscriptionDto(subscriptions.current) : null,
    upcoming: subscriptions.upcoming.map(toSubscriptionDto),
    entries: recent.rows.map(toLedgerDto),
  };
}

export async function listLedger(
  app: FastifyInstance,
  auth: Actor,
  query: z.output<typeof billingListQuerySchema>,
) {
  const organizationId = organizationFor(auth, query.organizationId);
  return paged(query, (window) => listLedgerEntries(app.db, organizationId, window), toLedgerDto);
}

/**
 * POST /api/v1/credits/use (the interview product, with an API key). In one transaction holding the
 * organization's row lock: a reference already debited answers that debit again (a retry debits
 * once); otherwise the balance is read and the debit refused (402) when it would go below zero. The
 * lock makes concurrent uses queue, so they cannot overdraw together.
 */
export async function useCredits(app: FastifyInstance, client: ApiClient, body: UseCreditsBody) {
  return app.db.transaction(async (tx) => {
    if (!(await lockOrganization(tx, client.organizationId))) {
      throw notFound(messages.users.organizationNotFound);
    }
    const earlier = await findLedgerEntry(tx, client.organizationId, 'usage', body.reference);
    if (earlier) {
      if (-earlier.delta !== body.credits) throw unprocessable(messages.billing.referenceReused);
      return {
        entryId: earlier.id,
        debited: body.credits,
        reference: body.reference,
        balance: await creditBalance(tx, client.organizationId),
        replayed: true,
      };
    }
    const balance = await creditBalance(tx, client.organizationId);
    if (body.credits > balance) {
      throw new AppError(402, messages.payment.insufficientCredits, 'INSUFFICIENT_CREDITS');
    }
    const [entry] = await insertLedgerEntries(tx, [
      {
        organizationId: client.organizationId,
        delta: -body.credits,
        reason: 'usage',
        reference: body.reference,
        note: `Used with API key ${client.keyPrefix}…`,
      },
    ]);
    await touchApiKey(tx, client.keyId);
    await recordActivity(tx, {
      organizationId: client.organizationId,
      actorUserId: null,
      action: 'other',
      entityType: 'credits',
      entityId: entry!.id,
      message: `Used ${formatCount(body.credits)} interview ${body.credits === 1 ? 'credit' : 'credits'} (reference ${body.reference})`,
    });
    return {
      entryId: entry!.id,
      debited: body.credits,
      reference: body.reference,
      balance: balance - body.credits,
      replayed: false,
    };
  });
}
