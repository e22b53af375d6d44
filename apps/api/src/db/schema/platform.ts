import { bigint, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestampTz } from './columns.js';

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

/** Every email is kept here; without SMTP it is also written to the log, so no link is lost. */
export const emailOutbox = pgTable('email_outbox', {
  id: id(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  /** Documents attached at delivery, rendered from the database (an invoice or credit note). */
  attachments: jsonb('attachments').$type<MailAttachmentRef[]>().notNull().default([]),
  status: text('status', { enum: ['pending', 'sent', 'logged', 'failed'] }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  createdAt: createdAt(),
  sentAt: timestampTz('sent_at'),
});
