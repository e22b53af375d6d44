import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sessions, users, userTotp } from '../../db/schema/index.js';
import { identitySnapshot, identityVersionOf, identityVersionSql } from '../../core/identity/cache.repo.js';
import { rolesAt } from '../../core/identity/roles.repo.js';
import { twoFactorEnabledSql } from '../../core/identity/second-factor.repo.js';

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
  /** The family's sign-in passed a second factor; a refresh carries it over. */
  secondFactor: boolean;
}

export async function insertSession(db: Db, s: NewSession): Promise<void> {
  await db.insert(sessions).values({ ...s, userAgent: s.userAgent ?? null });
}

/** The session lookup every signed-in request makes, prepared once per database handle. */
function prepareSessionLookup(db: Db) {
  return db
    .select({
      sessionId: sql<string>`session_id`,
      familyId: sql<string>`family_id`,
      userId: sql<string>`user_id`,
      secondFactor: sql<boolean>`second_factor`,
      version: sql<number | string>`identity_version`,
    })
    .from(sql`session_by_access_hash(${sql.placeholder('hash')})`)
    .prepare('session_by_access_hash');
}
const sessionLookups = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();

/**
 * The live session of an access token and the identity version: one call of a PL/pgSQL function
 * (migration 0003) whose plan the database keeps per connection, as a named prepared statement so
 * each connection parses it once. Who the user is (organization, role, state) comes from
 * `sessionIdentity`, cached per version.
 */
export async function findActiveSessionByAccessHash(db: Db, accessTokenHash: string) {
  let lookup = sessionLookups.get(db);
  if (!lookup) sessionLookups.set(db, (lookup = prepareSessionLookup(db)));
  const [row] = await lookup.execute({ hash: accessTokenHash });
  return row ? { ...row, version: identityVersionOf(row.version) } : null;
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
        twoFactorEnabled: twoFactorEnabledSql,
        version: identityVersionSql,
      })
      .from(users)
      .leftJoin(userTotp, eq(userTotp.userId, users.id))
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) return null;
    user = {
      organizationId: row.organizationId,
      roleId: row.roleId,
      isActive: row.isActive,
      twoFactorEnabled: row.twoFactorEnabled,
    };
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
 * Rotates a session's refresh token: 'rotated' for its first use; 'grace' when it was rotated within
 * `graceMs` (a second tab refreshing at the same moment); 'reused' when rotated earlier or revoked.
 * The first use is decided by one conditional update, so of racing refreshes exactly one rotates.
 */
export async function rotateRefreshToken(
  db: Db,
  sessionId: string,
  graceMs: number,
): Promise<'rotated' | 'grace' | 'reused'> {
  const rotated = await db
    .update(sessions)
    .set({ rotatedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.rotatedAt), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  if (rotated.length === 1) return 'rotated';
  const [row] = await db
    .select({
      inGrace: sql<boolean>`${sessions.revokedAt} is null and ${sessions.rotatedAt} > now() - make_interval(secs => ${graceMs / 1000})`,
    })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return row?.inGrace ? 'grace' : 'reused';
}

export async function revokeFamily(db: Db, familyId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
}

/** Marks a session family as having passed a second factor (the enrolment that confirmed a code in it). */
export async function markFamilySecondFactor(db: Db, familyId: string) {
  await db
    .update(sessions)
    .set({ secondFactor: true })
    .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
}

/** Ends a user's sessions (all, or all but one family); answers how many browsers were signed out. */
export async function revokeUserSessions(db: Db, userId: string, exceptFamilyId?: string): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptFamilyId ? sql`${sessions.familyId} <> ${exceptFamilyId}` : undefined,
      ),
    )
    .returning({ familyId: sessions.familyId });
  return new Set(rows.map((r) => r.familyId)).size;
}

/** Ends one of a user's sessions; false when the user has no live session of that family. */
export async function revokeFamilyOfUser(db: Db, userId: string, familyId: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), eq(sessions.familyId, familyId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/**
 * A user's signed-in browsers: one per session family whose newest token pair is live, with the
 * device and address of its latest sign-in or refresh.
 */
export async function listActiveFamilies(db: Db, userId: string) {
  const live = sql`${sessions.revokedAt} is null and ${sessions.rotatedAt} is null and ${sessions.refreshExpiresAt} > now()`;
  return db
    .select({
      familyId: sessions.familyId,
      signedInAt: sql<Date>`min(${sessions.createdAt})`.mapWith(sessions.createdAt),
      // Each sign-in and refresh writes a row: the newest is when the browser was last used.
      lastUsedAt: sql<Date>`max(${sessions.createdAt})`.mapWith(sessions.createdAt),
      userAgent: sql<
        string | null
      >`(array_agg(${sessions.userAgent} order by ${sessions.createdAt} desc))[1]`,
      ipAddress: sql<
        string | null
      >`(array_agg(${sessions.ipAddress} order by ${sessions.createdAt} desc))[1]`,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .groupBy(sessions.familyId)
    .having(sql`bool_or(${live})`)
    .orderBy(sql`max(${sessions.createdAt}) desc`);
}

/** Whom a user's sessions belong to, as the activity log names them; null for no such user. */
export async function findSessionOwner(db: Db, userId: string) {
  const [row] = await db
    .select({ id: users.id, username: users.username, organizationId: users.organizationId })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** Deletes sessions whose refresh token has expired; returns how many went. */
export async function deleteEndedSessions(db: Db, now: Date): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(lt(sessions.refreshExpiresAt, now))
    .returning({ id: sessions.id });
  return rows.length;
}
