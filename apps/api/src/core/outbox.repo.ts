import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { emailOutbox, type MailAttachmentRef } from '../db/schema/index.js';

/** Writes a mail to the outbox (inside the caller's transaction) and returns its id. */
export async function insertOutboxMail(
  db: Db,
  mail: { to: string; subject: string; text: string; attachments?: MailAttachmentRef[] },
) {
  const [row] = await db
    .insert(emailOutbox)
    .values({
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      attachments: mail.attachments ?? [],
      status: 'pending',
    })
    .returning({ id: emailOutbox.id });
  return row!.id;
}

export async function findOutboxMail(db: Db, id: string) {
  const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  return mail;
}

/** Counts a delivery attempt and what came of it. */
export async function recordDeliveryAttempt(
  db: Db,
  id: string,
  outcome: { status: 'sent' | 'logged' | 'failed'; lastError?: string },
) {
  await db
    .update(emailOutbox)
    .set({
      status: outcome.status,
      ...(outcome.status === 'sent' ? { sentAt: new Date() } : {}),
      ...(outcome.lastError === undefined ? {} : { lastError: outcome.lastError }),
      attempts: sql`${emailOutbox.attempts} + 1`,
    })
    .where(eq(emailOutbox.id, id));
}
