import type { FastifyBaseLogger } from 'fastify';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import type { Db } from '../db/client.js';
import type { MailAttachmentRef } from '../db/schema/index.js';
import { findOutboxMail, insertOutboxMail, recordDeliveryAttempt } from './outbox.repo.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachmentRef[];
}

export interface RenderedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Renders an attached document (an invoice's PDF) from the database when the mail goes out. */
export type AttachmentRenderer = (db: Db, ref: MailAttachmentRef) => Promise<RenderedAttachment>;

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
  renderAttachment: AttachmentRenderer;
}): Mailer {
  const fileDir = options.smtpUrl?.startsWith('file://') ? fileURLToPath(options.smtpUrl) : null;
  if (fileDir) mkdirSync(fileDir, { recursive: true });
  const transport = options.smtpUrl && !fileDir ? nodemailer.createTransport(options.smtpUrl) : null;
  return {
    enqueue: insertOutboxMail,
    async deliver(db, outboxId) {
      const mail = await findOutboxMail(db, outboxId);
      if (!mail || mail.status === 'sent') return;
      const attachments = await Promise.all(mail.attachments.map((ref) => options.renderAttachment(db, ref)));
      if (fileDir) {
        // A test opens what the customer would receive: the mail as JSON, each attachment beside it.
        const base = join(fileDir, `${mail.createdAt.getTime()}-${mail.id}`);
        const files = attachments.map((a, i) => {
          const path = `${base}-${i}-${a.filename}`;
          writeFileSync(path, a.content);
          return { filename: a.filename, contentType: a.contentType, path };
        });
        writeFileSync(
          `${base}.json`,
          JSON.stringify({
            to: mail.toAddress,
            subject: mail.subject,
            text: mail.textBody,
            attachments: files,
          }),
        );
        await recordDeliveryAttempt(db, outboxId, { status: 'sent' });
        return;
      }
      if (!transport) {
        options.log.info(
          {
            to: mail.toAddress,
            subject: mail.subject,
            body: mail.textBody,
            attachments: attachments.map((a) => a.filename),
          },
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
          attachments,
        });
        await recordDeliveryAttempt(db, outboxId, { status: 'sent' });
      } catch (error) {
        options.log.warn({ err: error, outboxId }, 'email delivery failed; kept in outbox');
        await recordDeliveryAttempt(db, outboxId, { status: 'failed', lastError: String(error) });
      }
    },
  };
}

/** Delivers the mails a committed transaction wrote to the outbox, one after another. */
export async function deliverAll(
  deps: { db: Db; mailer: Mailer },
  outboxIds: readonly string[],
): Promise<void> {
  for (const id of outboxIds) await deps.mailer.deliver(deps.db, id);
}
