import type { z } from 'zod';
import {
  formatCount,
  messages,
  type billingListQuerySchema,
  type CreditSummary,
  type UseCreditsBody,
} from '@portal/shared';
import { AppError, notFound, unprocessable } from '../../lib/errors.js';
import { pageEnvelope } from '../../lib/paging.js';
import type { Actor, SystemActor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import type { Deps } from '../../core/deps.js';
import { touchApiKey } from './api-keys.repo.js';
import type { ApiClient } from './api-keys.service.js';
import { toLedgerDto, toSubscriptionDto } from './dto.js';
import {
  creditBalance,
  findLedgerEntry,
  insertLedgerEntries,
  listLedgerEntries,
  lockOrganization,
} from './ledger.repo.js';
import { organizationFor } from './rules.js';
import { findCurrentAndUpcoming } from './subscriptions.repo.js';

const RECENT_ENTRIES = 10;

/**
 * GET /api/auth/credits: balance (sum of the ledger), the subscription running now and those bought
 * to follow it, and recent entries.
 */
export async function getCreditSummary(
  deps: Deps,
  actor: Actor,
  query: { organizationId?: string | undefined },
): Promise<CreditSummary> {
  const organizationId = organizationFor(actor, query.organizationId);
  const [balance, subscriptions, recent] = await Promise.all([
    creditBalance(deps.db, organizationId),
    findCurrentAndUpcoming(deps.db, organizationId, deps.clock.now()),
    listLedgerEntries(deps.db, organizationId, { page: 1, pageSize: RECENT_ENTRIES }),
  ]);
  return {
    organizationId,
    balance,
    subscription: subscriptions.current ? toSubscriptionDto(subscriptions.current) : null,
    upcoming: subscriptions.upcoming.map(toSubscriptionDto),
    entries: recent.rows.map(toLedgerDto),
  };
}

export async function listLedger(deps: Deps, actor: Actor, query: z.output<typeof billingListQuerySchema>) {
  const organizationId = organizationFor(actor, query.organizationId);
  const { rows, total } = await listLedgerEntries(deps.db, organizationId, query);
  return pageEnvelope(query, rows.map(toLedgerDto), total);
}

/**
 * POST /api/v1/credits/use (the interview product, with an API key). In one transaction holding the
 * organization's row lock: a reference already debited answers that debit again (a retry debits
 * once); otherwise the balance is read and the debit refused (402) when it would go below zero. The
 * lock makes concurrent uses queue, so they cannot overdraw together. The portal acts here for the
 * key's organization (`systemActor('api-key')`), so its activity entry names no user.
 */
export async function useCredits(
  deps: Deps,
  _actor: SystemActor,
  input: { client: ApiClient; body: UseCreditsBody },
) {
  const { client, body } = input;
  const used = await deps.db.transaction(async (tx) => {
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
  if (!used.replayed) deps.metrics.business.creditsUsed(used.debited);
  return used;
}
