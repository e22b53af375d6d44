import { NOTIFICATION_KINDS } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id, timestampTz, updatedAt } from './columns.js';
import { organizations } from './tenancy.js';

/** Uploaded files live in the database so any number of API processes can serve them. */
export const storedFiles = pgTable('stored_files', {
  id: id(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id),
  ownerUserId: uuid('owner_user_id'),
  fileName: text('file_name').notNull(),
  mimeType: text('mime_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  sha256: text('sha256').notNull(),
  createdAt: createdAt(),
});

/**
 * A stored file's bytes, in pieces of at most FILE_CHUNK_BYTES, one statement each, so that other
 * requests take turns with a large file on the embedded database (docs/decisions/022).
 */
export const storedFileChunks = pgTable(
  'stored_file_chunks',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

export const activityEntries = pgTable(
  'activity_entries',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    actorUserId: uuid('actor_user_id'),
    action: text('action', { enum: ['created', 'updated', 'deleted', 'other'] }).notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('activity_org_created').on(t.organizationId, t.createdAt),
    index('activity_created').on(t.createdAt),
  ],
);

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id').notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    /** Makes periodic notices (expiring, expired) idempotent per user. */
    dedupeKey: text('dedupe_key'),
    readAt: timestampTz('read_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_created').on(t.userId, t.createdAt),
    uniqueIndex('notifications_user_dedupe')
      .on(t.userId, t.dedupeKey)
      .where(sql`${t.dedupeKey} is not null`),
  ],
);

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: id(),
    /** `TICKET-` plus a timestamp. */
    displayId: text('display_id').notNull().unique(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    createdBy: uuid('created_by').notNull(),
    type: text('type', { enum: ['feedback', 'callback'] }).notNull(),
    message: text('message').notNull(),
    fileId: uuid('file_id').references(() => storedFiles.id),
    fileName: text('file_name'),
    fileType: text('file_type'),
    status: text('status', { enum: ['Active', 'Inactive'] })
      .notNull()
      .default('Active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('support_tickets_org_updated').on(t.organizationId, t.updatedAt)],
);

export const positions = pgTable(
  'positions',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    title: text('title').notNull(),
    department: text('department').notNull(),
    location: text('location').notNull(),
    openings: integer('openings').notNull(),
    status: text('status', { enum: ['Open', 'Closed'] })
      .notNull()
      .default('Open'),
    createdBy: uuid('created_by'),
    closedAt: timestampTz('closed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('positions_org_created').on(t.organizationId, t.createdAt)],
);
