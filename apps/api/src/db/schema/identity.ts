import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestampTz, updatedAt } from './columns.js';
import { organizations } from './tenancy.js';
import { storedFiles } from './workspace.js';

export const features = pgTable('features', {
  /** Stable slug, e.g. `user-management` (packages/shared FEATURES). */
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** System roles have no organization; custom roles belong to the organization that made them. */
export const roles = pgTable(
  'roles',
  {
    id: id(),
    organizationId: uuid('organization_id').references(() => organizations.id, {
      onDelete: 'cascade',
    }),
    name: text('name').notNull(),
    isSystem: boolean('is_system').notNull().default(false),
    /** Its users must sign in with a second factor (the super administrator's role always does). */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('roles_org_name_unique').on(
      sql`coalesce(${t.organizationId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`lower(${t.name})`,
    ),
  ],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    id: id(),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    featureId: text('feature_id')
      .notNull()
      .references(() => features.id),
    scopes: text('scopes').array().notNull(),
  },
  (t) => [uniqueIndex('role_permissions_role_feature').on(t.roleId, t.featureId)],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id),
    username: text('username').notNull(),
    email: text('email').notNull(),
    fullName: text('full_name'),
    mobileNo: text('mobile_no'),
    client: text('client'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    /** Null until the invited user sets a password through the one-time link. */
    passwordHash: text('password_hash'),
    passwordChangedAt: timestampTz('password_changed_at'),
    profileImageFileId: uuid('profile_image_file_id').references(() => storedFiles.id, {
      onDelete: 'set null',
    }),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    index('users_org_created').on(t.organizationId, t.createdAt),
    // Admin Users lists one role across every tenant, newest first (GET /api/auth/users?role=admin).
    index('users_role_created').on(t.roleId, t.createdAt, t.id),
    // Substring search (username, email, full name, client) uses a pg_trgm index made in migration
    // 0001 outside this schema, because PGlite only has pg_trgm when the extension is loaded.
    // See modules/users/users.repo.ts userSearchText.
  ],
);

/**
 * One row per issued token pair. A refresh rotates: the old row is marked rotated and a new row of
 * the same family is issued; presenting a rotated refresh token revokes the whole family.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    familyId: uuid('family_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessTokenHash: text('access_token_hash').notNull().unique(),
    refreshTokenHash: text('refresh_token_hash').notNull().unique(),
    accessExpiresAt: timestampTz('access_expires_at').notNull(),
    refreshExpiresAt: timestampTz('refresh_expires_at').notNull(),
    rotatedAt: timestampTz('rotated_at'),
    revokedAt: timestampTz('revoked_at'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /** Whether the sign-in that opened this session family passed a second factor (decision 021). */
    secondFactor: boolean('second_factor').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_family').on(t.familyId), index('sessions_user').on(t.userId)],
);

/**
 * A user's authenticator secret (RFC 6238), encrypted with a key derived from SESSION_SECRET.
 * Unconfirmed until its first code; `lastUsedStep` refuses a code's second use and
 * `spentChallengesUntil` a sign-in challenge's (two-factor/challenge.ts).
 */
export const userTotp = pgTable('user_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretCiphertext: text('secret_ciphertext').notNull(),
  confirmedAt: timestampTz('confirmed_at'),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  /** When the latest challenge that completed a sign-in was issued: it and every older one are spent. */
  spentChallengesUntil: timestampTz('spent_challenges_until'),
  createdAt: createdAt(),
});

/** One-time recovery codes, kept as keyed hashes only. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestampTz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_code').on(t.userId, t.codeHash)],
);

/** Browsers a user has signed in from (a long-lived cookie's keyed hash), to mail about new ones. */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text('device_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
);

export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['invite', 'password_reset'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestampTz('expires_at').notNull(),
    usedAt: timestampTz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_tokens_user').on(t.userId, t.purpose)],
);
