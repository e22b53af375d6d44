import { MAIL_KINDS } from '@portal/shared';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestampTz } from './columns.js';
import { organizations } from './tenancy.js';

/** A document to attach to a mail, rendered when the mail is delivered. */
export interface MailAttachmentRef {
  kind: 'invoice' | 'credit_note';
  id: string;
}

/** Server-wide settings shared by every API process (the session signing secret). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Version counters of data that API processes cache in memory (docs/decisions/007). Triggers made in
 * migration 0002 bump `identity` when a transaction that changed users, roles, role permissions,
 * features, organizations or subscriptions commits; a cached value is used only when the version read
 * in the same statement as the request's data equals the version it was cached at.
 */
export const dataVersions = pgTable('data_versions', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/** Fixed-window counters for rate limits, shared by every API process. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  windowStart: timestampTz('window_start').notNull(),
  count: integer('count').notNull(),
});

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id').notNull(),
    key: text('key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['in_progress', 'completed'] }).notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
    completedAt: timestampTz('completed_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * Every email is kept here, written in the transaction of the change it tells of; a job delivers it
 * (core/mail.ts). Without SMTP it is written to the log instead, so no link is lost.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: id(),
    kind: text('kind', { enum: MAIL_KINDS }).notNull(),
    /** The organization the recipient belongs to, whose admins hear of a mail given up. */
    organizationId: uuid('organization_id').references(() => organizations.id),
    /** What wrote it when that may run twice (a retried job): one mail per key. */
    sourceKey: text('source_key'),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    /** Documents attached at delivery, rendered from the database (an invoice or credit note). */
    attachments: jsonb('attachments').$type<MailAttachmentRef[]>().notNull().default([]),
    /** pending until the SMTP server takes it (sent), or the log does (logged), or it is given up. */
    status: text('status', { enum: ['pending', 'sent', 'logged', 'undelivered'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestampTz('sent_at'),
    gaveUpAt: timestampTz('gave_up_at'),
  },
  (t) => [uniqueIndex('email_outbox_source_key').on(t.sourceKey)],
);

/** Each try at handing an outbox mail to the SMTP server. */
export const emailDeliveryAttempts = pgTable(
  'email_delivery_attempts',
  {
    id: id(),
    outboxId: uuid('outbox_id')
      .notNull()
      .references(() => emailOutbox.id, { onDelete: 'cascade' }),
    attemptedAt: timestampTz('attempted_at').notNull().defaultNow(),
    outcome: text('outcome', { enum: ['sent', 'temporary_failure', 'permanent_failure'] }).notNull(),
    smtpCode: integer('smtp_code'),
    error: text('error'),
  },
  (t) => [index('email_delivery_attempts_outbox').on(t.outboxId, t.attemptedAt)],
);

/** One row per scheduled job and slot: the slot runs once across every process, and its outcome stays. */
export const scheduledRuns = pgTable(
  'scheduled_runs',
  {
    job: text('job').notNull(),
    slot: timestampTz('slot').notNull(),
    startedAt: timestampTz('started_at').notNull().defaultNow(),
    finishedAt: timestampTz('finished_at'),
    outcome: text('outcome', { enum: ['running', 'completed', 'failed'] }).notNull(),
    result: jsonb('result'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.job, t.slot] })],
);
