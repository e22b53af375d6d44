import { messages, type MailAttempt, type UndeliveredMail, type UndeliveredMailQuery } from '@portal/shared';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { mailDelivery } from '../../core/mail.js';
import * as outbox from '../../core/outbox.repo.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { offsetOf } from '../../lib/paging.js';

/** Undelivered mail is the platform's to watch: the super administrator's, across every tenant. */
function requireSuperAdmin(actor: Actor) {
  if (!actor.isSuperAdmin) throw forbidden();
}

export async function listUndeliveredMail(
  deps: Deps,
  actor: Actor,
  query: UndeliveredMailQuery,
): Promise<{ items: UndeliveredMail[]; total: number }> {
  requireSuperAdmin(actor);
  const { rows, total } = await outbox.listUndeliveredMail(deps.db, {
    offset: offsetOf(query),
    limit: query.pageSize,
    ...(query.search ? { search: query.search } : {}),
  });
  const items = rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    gaveUpAt: (row.gaveUpAt ?? row.createdAt).toISOString(),
  }));
  return { items, total };
}

export async function listMailAttempts(
  deps: Deps,
  actor: Actor,
  input: { id: string },
): Promise<MailAttempt[]> {
  requireSuperAdmin(actor);
  if (!(await outbox.findOutboxMail(deps.db, input.id))) throw notFound(messages.mail.notFound);
  const attempts = await outbox.listDeliveryAttempts(deps.db, input.id);
  return attempts.map((a) => ({
    attemptedAt: a.attemptedAt.toISOString(),
    outcome: a.outcome,
    smtpCode: a.smtpCode,
    error: a.error,
  }));
}

/**
 * Queues an undelivered mail again, to its address or a corrected one. Only an undelivered mail can
 * be resent, so two operators pressing at once queue it once.
 */
export async function resendMail(deps: Deps, actor: Actor, input: { id: string; to?: string | undefined }) {
  requireSuperAdmin(actor);
  await deps.db.transaction(async (tx) => {
    const mail = await outbox.findOutboxMail(tx, input.id);
    if (!mail) throw notFound(messages.mail.notFound);
    if (!(await outbox.reopenUndeliveredMail(tx, input.id, input.to)))
      throw conflict(messages.mail.notUndelivered);
    await deps.jobs.send(tx, mailDelivery, { outboxId: input.id });
    await recordActivity(tx, {
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: 'other',
      entityType: 'mail',
      entityId: input.id,
      message: `Sent "${mail.subject}" again to ${input.to ?? mail.toAddress}`,
    });
  });
}
