import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { emailDeliveryAttempts, emailOutbox, organizations } from '../db/schema/index.js';
import type { DeliveryAttempt, Mail } from './mail.js';

/** Writes a mail to the outbox (inside the caller's transaction) and returns its id. */
export async function insertOutboxMail(db: Db, mail: Mail): Promise<string> {
  const [row] = await db
    .insert(emailOutbox)
    .values({
      kind: mail.kind,
      organizationId: mail.organizationId ?? null,
      sourceKey: mail.sourceKey ?? null,
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      attachments: mail.attachments ?? [],
      status: 'pending',
    })
    .returning({ id: emailOutbox.id });
  return row!.id;
}

/**
 * Writes several mails to the outbox in one statement (inside the caller's transaction) and returns
 * their ids in the order given. The ids are made here, so the answer does not rest on the order of
 * RETURNING.
 */
export async function insertOutboxMails(db: Db, mails: readonly Mail[]): Promise<string[]> {
  if (mails.length === 0) return [];
  const ids = mails.map(() => randomUUID());
  await db.insert(emailOutbox).values(
    mails.map((mail, i) => ({
      id: ids[i]!,
      kind: mail.kind,
      organizationId: mail.organizationId ?? null,
      sourceKey: mail.sourceKey ?? null,
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      attachments: mail.attachments ?? [],
      status: 'pending' as const,
    })),
  );
  return ids;
}

/** Whether work keyed `sourceKey` (a job's try) wrote its mail already. */
export async function outboxHasSourceKey(db: Db, sourceKey: string): Promise<boolean> {
  const [row] = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(eq(emailOutbox.sourceKey, sourceKey));
  return row !== undefined;
}

export async function findOutboxMail(db: Db, id: string) {
  const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  return mail;
}

/** Keeps one try at the SMTP server and what it left the mail as: sent, still pending, or given up. */
export async function recordDeliveryAttempt(
  db: Db,
  id: string,
  attempt: DeliveryAttempt | { outcome: 'logged' },
  giveUp: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (attempt.outcome === 'logged') {
      await tx
        .update(emailOutbox)
        .set({ status: 'logged', sentAt: new Date() })
        .where(eq(emailOutbox.id, id));
      return;
    }
    const failed = 'error' in attempt ? attempt : null;
    await tx.insert(emailDeliveryAttempts).values({
      outboxId: id,
      outcome: attempt.outcome,
      smtpCode: failed?.smtpCode ?? null,
      error: failed?.error ?? null,
    });
    await tx
      .update(emailOutbox)
      .set({
        attempts: sql`${emailOutbox.attempts} + 1`,
        ...(!failed
          ? { status: 'sent' as const, sentAt: new Date() }
          : giveUp
            ? { status: 'undelivered' as const, lastError: failed.error, gaveUpAt: new Date() }
            : { status: 'pending' as const, lastError: failed.error }),
      })
      .where(eq(emailOutbox.id, id));
  });
}

/** Mail given up on, newest first; `search` matches the recipient or the subject. */
export async function listUndeliveredMail(db: Db, query: { offset: number; limit: number; search?: string }) {
  const pattern = query.search ? `%${query.search.replace(/[\\%_]/g, '\\$&')}%` : null;
  const where = and(
    eq(emailOutbox.status, 'undelivered'),
    pattern ? or(ilike(emailOutbox.toAddress, pattern), ilike(emailOutbox.subject, pattern)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: emailOutbox.id,
        to: emailOutbox.toAddress,
        subject: emailOutbox.subject,
        kind: emailOutbox.kind,
        organizationName: organizations.name,
        attempts: emailOutbox.attempts,
        lastError: emailOutbox.lastError,
        createdAt: emailOutbox.createdAt,
        gaveUpAt: emailOutbox.gaveUpAt,
      })
      .from(emailOutbox)
      .leftJoin(organizations, eq(organizations.id, emailOutbox.organizationId))
      .where(where)
      .orderBy(desc(emailOutbox.gaveUpAt), desc(emailOutbox.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(emailOutbox).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function listDeliveryAttempts(db: Db, outboxId: string) {
  return db
    .select()
    .from(emailDeliveryAttempts)
    .where(eq(emailDeliveryAttempts.outboxId, outboxId))
    .orderBy(emailDeliveryAttempts.attemptedAt);
}

/**
 * Puts an undelivered mail back to pending, to `to` if given; false when it is not undelivered (sent
 * meanwhile, or resent by someone else a moment before).
 */
export async function reopenUndeliveredMail(db: Db, id: string, to: string | undefined): Promise<boolean> {
  const reopened = await db
    .update(emailOutbox)
    .set({ status: 'pending', gaveUpAt: null, ...(to ? { toAddress: to } : {}) })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'undelivered')))
    .returning({ id: emailOutbox.id });
  return reopened.length === 1;
}
