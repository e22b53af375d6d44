import { MAIL_KIND_LABELS, messages } from '@portal/shared';
import { defineJob } from '../../core/jobs.js';
import { mailDelivery } from '../../core/mail.js';
import { findOutboxMail, recordDeliveryAttempt } from '../../core/outbox.repo.js';
import { notifyOrganizationAdmins } from '../notifications/index.js';

/** Raised to have pg-boss try the mail again later; the attempt is already recorded. */
class TemporaryMailFailure extends Error {}

/**
 * Delivers one outbox mail: each try is recorded; a temporary failure (4xx, refused or dropped
 * connection, timeout) is tried again with a doubling delay, a permanent one (5xx) or the last
 * temporary one gives the mail up, and the recipient's organization admins are told in the portal.
 */
export const mailDeliveryJob = defineJob<{ outboxId: string }>({
  ...mailDelivery,
  queue: (config) => ({ ...config.jobs.mail, retryBackoff: true }),
  // Mails go out ten at a time per process; each is its own job and fails or succeeds alone.
  batchSize: 10,
  async run(deps, actor, job) {
    const { outboxId } = job.data;
    const attempt = await deps.mailer.send(deps.db, outboxId);
    if (attempt.outcome === 'already_sent') return { outcome: attempt.outcome };

    const lastTry = job.retryCount >= job.retryLimit;
    const giveUp =
      attempt.outcome === 'permanent_failure' || (attempt.outcome === 'temporary_failure' && lastTry);
    await recordDeliveryAttempt(deps.db, outboxId, attempt, giveUp);
    if (attempt.outcome === 'temporary_failure' && !giveUp) throw new TemporaryMailFailure(attempt.error);
    if (giveUp) {
      deps.metrics.mailGivenUp();
      const mail = await findOutboxMail(deps.db, outboxId);
      deps.log.warn({ outboxId, to: mail?.toAddress, error: attempt.error }, 'email given up');
      if (mail?.organizationId) {
        await notifyOrganizationAdmins(deps, actor, {
          organizationId: mail.organizationId,
          kind: 'mail_undelivered',
          title: messages.mail.undeliveredTitle,
          body: messages.mail.undeliveredBody(MAIL_KIND_LABELS[mail.kind], mail.toAddress),
          link: null,
        });
      }
    }
    return { outcome: attempt.outcome };
  },
});
