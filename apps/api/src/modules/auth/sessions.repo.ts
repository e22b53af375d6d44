import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sessions, users } from '../../db/schema/index.js';
import { identitySnapshot, identityVersionOf, identityVersionSql } from '../../lib/identity-cache.js';
import { executePrepared } from '../../lib/statements.js';
import { rolesAt } from '../roles/permissions.repo.js';

export type SessionRow = typeof sessions.$inferSelect;

export interface NewSession {
  familyId: string;
  userId: string;
  accessTokenHash: string;
  refreshTokenHash: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
  ipAddress: string;
  userAgent: string | undefined;
}

/** Raw and prepared: on every sign-in and refresh, where drizzle's insert builder took 110 of 550 µs. */
export async function insertSession(db: Db, s: NewSession): Promise<void> {
  await executePrepared(
    db,
    sql`
      insert into sessions (family_id, user_id, access_token_hash, refresh_token_hash, access_expires_at,
        refresh_expires_at, ip_address, user_agent)
      values (${s.familyId}, ${s.userId}, ${s.accessTokenHash}, ${s.refreshTokenHash},
        ${s.accessExpiresAt.toISOString()}, ${s.refreshExpiresAt.toISOString()}, ${s.ipAddress}, ${s.userAgent ?? null})`,
  );
}

/**
 * The live session of an access token and the identity version: one call of a PL/pgSQL function
 * (migration 0003) whose plan the database keeps per connection. Who the user is (organization,
 * role, state) comes from `sessionIdentity`, cached per version.
 */
export async function findActiveSessionByAccessHash(db: Db, accessTokenHash: string) {
  const [row] = await executePrepared<{
    session_id: string;
    family_id: string;
    user_id: string;
    identity_version: number | string;
  }>(
    db,
    sql`
      select session_id, family_id, user_id, identity_version from session_by_access_hash(${accessTokenHash})`,
  );
  return row
    ? {
        sessionId: row.session_id,
        familyId: row.family_id,
        userId: row.user_id,
        version: identityVersionOf(row.identity_version),
      }
    : null;
}

/**
 * A user's organization, role (with its permissions) and state as of identity `version`: from this
 * process's snapshot of that version, or loaded in one statement (two if the role is not cached).
 */
export async function sessionIdentity(db: Db, userId: string, version: number) {
  const snapshot = identitySnapshot(db, version);
  let user = snapshot.users.get(userId);
  let roleVersion = version;
  if (!user) {
    const [row] = await db
      .select({
        organizationId: users.organizationId,
        roleId: users.roleId,
        isActive: users.isActive,
        version: identityVersionSql,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) return null;
    user = { organizationId: row.organizationId, roleId: row.roleId, isActive: row.isActive };
    roleVersion = identityVersionOf(row.version);
    identitySnapshot(db, roleVersion).users.set(userId, user);
  }
  const role = (await rolesAt(db, roleVersion, [user.roleId])).get(user.roleId);
  if (!role) return null;
  return { ...user, role };
}

export async function findSessionByRefreshHash(db: Db, refreshTokenHash: string) {
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.refreshTokenHash, refreshTokenHash))
    .limit(1);
  return row ?? null;
}

/**
 * Marks a session rotated only if nobody rotated it first, so two racing refreshes with the same
 * token cannot both succeed: the loser sees a reuse.
 */
export async function markRotated(db: Db, sessionId: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ rotatedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.rotatedAt), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length === 1;
}

export async function revokeFamily(db: Db, familyId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(db: Db, userId: string, exceptFamilyId?: string) {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptFamilyId ? sql`${sessions.familyId} <> ${exceptFamilyId}` : undefined,
      ),
    );
}
