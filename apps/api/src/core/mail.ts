import type { FastifyBaseLogger } from 'fastify';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import type { MailKind } from '@portal/shared';
import type { Db } from '../db/client.js';
import type { MailAttachmentRef } from '../db/schema/index.js';
import type { JobName, JobQueue } from './jobs.js';
import { findOutboxMail, insertOutboxMail, insertOutboxMails } from './outbox.repo.js';

export interface Mail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachmentRef[];
  /** The recipient's organization: its admins hear of the mail if it cannot be delivered. */
  organizationId?: string | null;
  /** Set by work that may run twice (a retried job), which checks it first: one mail per key. */
  sourceKey?: string;
}

export interface RenderedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Renders an attached document (an invoice's PDF) from the database when the mail goes out. */
export type AttachmentRenderer = (db: Db, ref: MailAttachmentRef) => Promise<RenderedAttachment>;

/** What came of handing a mail to the SMTP server once. */
export type SendOutcome = DeliveryAttempt | { outcome: 'logged' } | { outcome: 'already_sent' };

/** A try at the SMTP server (or the mail folder), as the outbox records it. */
export type DeliveryAttempt =
  | { outcome: 'sent' }
  | { outcome: 'temporary_failure' | 'permanent_failure'; smtpCode: number | null; error: string };

/** The delivery job's queue; the mail module runs it (modules/mail). */
export const mailDelivery: JobName<{ outboxId: string }> = { name: 'mail.deliver' };

export interface Mailer {
  /**
   * Writes the mail to the outbox and queues its delivery, both in the caller's transaction `db`:
   * nothing is sent for a change that rolls back. Answers the outbox id.
   */
  enqueue(db: Db, mail: Mail): Promise<string>;
  /**
   * `enqueue` for several mails at once (an import's invitations): one statement for the outbox rows
   * and one for their delivery jobs, in the caller's transaction. Answers the outbox ids in order.
   */
  enqueueMany(db: Db, mails: readonly Mail[]): Promise<string[]>;
  /** Hands an outbox mail to the SMTP server (or the mail folder, or the log) once. */
  send(db: Db, outboxId: string): Promise<SendOutcome>;
  /** Closes the SMTP connections: a send still waiting on one fails (shutdown). */
  close(): void;
}

/**
 * 5xx answers are permanent (the address or the content is refused); 4xx answers, refused or dropped
 * connections and timeouts are temporary and tried again.
 */
export function classifySmtpError(error: unknown): SendOutcome {
  const { responseCode, message } = error as { responseCode?: number; message?: string };
  const smtpCode = typeof responseCode === 'number' ? responseCode : null;
  const text = (message ?? String(error)).slice(0, 1_000);
  return smtpCode !== null && smtpCode >= 500
    ? { outcome: 'permanent_failure', smtpCode, error: text }
    : { outcome: 'temporary_failure', smtpCode, error: text };
}

/**
 * SMTP_URL with what the delivery job needs unless it says otherwise: a few pooled connections
 * reused across mails, and timeouts that fail a stalled server's try well before the job's own
 * limit (nodemailer waits 10 minutes by default). nodemailer reads transport options from the URL.
 */
function smtpTransportUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const defaults = {
    pool: 'true',
    maxConnections: '5',
    connectionTimeout: '15000',
    greetingTimeout: '15000',
    socketTimeout: '30000',
  };
  for (const [key, value] of Object.entries(defaults)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  }
  return url.toString();
}

/**
 * SMTP_URL `smtp://…` sends; `file://DIR` writes each mail as JSON (tests follow its links); unset,
 * every mail goes to the log and stays in the outbox, so a link is never lost.
 */
export function createMailer(options: {
  smtpUrl?: string | undefined;
  from: string;
  /** The host in each mail's Message-ID, so one outbox mail keeps one Message-ID across retries. */
  messageIdHost: string;
  log: FastifyBaseLogger;
  jobs: JobQueue;
  renderAttachment: AttachmentRenderer;
}): Mailer {
  const fileDir = options.smtpUrl?.startsWith('file://') ? fileURLToPath(options.smtpUrl) : null;
  if (fileDir) mkdirSync(fileDir, { recursive: true });
  const transport =
    options.smtpUrl && !fileDir ? nodemailer.createTransport(smtpTransportUrl(options.smtpUrl)) : null;
  return {
    async enqueue(db, mail) {
      const outboxId = await insertOutboxMail(db, mail);
      await options.jobs.send(db, mailDelivery, { outboxId });
      return outboxId;
    },
    async enqueueMany(db, mails) {
      const outboxIds = await insertOutboxMails(db, mails);
      await options.jobs.sendMany(
        db,
        mailDelivery,
        outboxIds.map((outboxId) => ({ outboxId })),
      );
      return outboxIds;
    },
    async send(db, outboxId) {
      const mail = await findOutboxMail(db, outboxId);
      if (!mail || mail.status === 'sent' || mail.status === 'logged') return { outcome: 'already_sent' };
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
        return { outcome: 'sent' };
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
        return { outcome: 'logged' };
      }
      try {
        await transport.sendMail({
          from: options.from,
          to: mail.toAddress,
          subject: mail.subject,
          text: mail.textBody,
          attachments,
          messageId: `<${mail.id}@${options.messageIdHost}>`,
        });
        return { outcome: 'sent' };
      } catch (error) {
        return classifySmtpError(error);
      }
    },
    close() {
      transport?.close();
    },
  };
}
