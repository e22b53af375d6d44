import type { FastifyBaseLogger } from 'fastify';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/client.js';
import { findOutboxMail, insertOutboxMail, recordDeliveryAttempt } from './outbox.repo.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Writes the mail to the outbox inside the caller's transaction. */
  enqueue(db: Db, mail: Mail): Promise<string>;
  /** Sends (or logs) an outbox entry after the transaction committed. */
  deliver(db: Db, outboxId: string): Promise<void>;
}

/** Without SMTP every mail goes to the log and stays in the outbox, so a link is never lost. */
export function createMailer(options: {
  smtpUrl?: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}): Mailer {
  const fileDir = options.smtpUrl?.startsWith('file://') ? fileURLToPath(options.smtpUrl) : null;
  if (fileDir) mkdirSync(fileDir, { recursive: true });
  const transport = options.smtpUrl && !fileDir ? nodemailer.createTransport(options.smtpUrl) : null;
  return {
    enqueue: insertOutboxMail,
    async deliver(db, outboxId) {
      const mail = await findOutboxMail(db, outboxId);
      if (!mail || mail.status === 'sent') return;
      if (fileDir) {
        const file = join(fileDir, `${mail.createdAt.getTime()}-${mail.id}.json`);
        writeFileSync(
          file,
          JSON.stringify({ to: mail.toAddress, subject: mail.subject, text: mail.textBody }),
        );
        await recordDeliveryAttempt(db, outboxId, { status: 'sent' });
        return;
      }
      if (!transport) {
        options.log.info(
          { to: mail.toAddress, subject: mail.subject, body: mail.textBody },
          'email (no SMTP configured)',
        );
        await recordDeliveryAttempt(db, outboxId, { status: 'logged' });
        return;
      }
      try {
        await transport.sendMail({
          from: options.from,
          to: mail.toAddress,
          subject: mail.subject,
          text: mail.textBody,
        });
        await recordDeliveryAttempt(db, outboxId, { status: 'sent' });
      } catch (error) {
        options.log.warn({ err: error, outboxId }, 'email delivery failed; kept in outbox');
        await recordDeliveryAttempt(db, outboxId, { status: 'failed', lastError: String(error) });
      }
    },
  };
}
