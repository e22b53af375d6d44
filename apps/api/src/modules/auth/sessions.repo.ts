import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { roles, sessions, users } from '../../db/schema/index.js';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: Db, values: typeof sessions.$inferInsert) {
  const [row] = await db.insert(sessions).values(values).returning();
  return row!;
}

/** The live session of an access token, with what the permission check needs, in one query. */
export async function findActiveSessionByAccessHash(db: Db, accessTokenHash: string) {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      familyId: sessions.familyId,
      userId: users.id,
      organizationId: users.organizationId,
      roleId: users.roleId,
      roleName: roles.name,
      isActive: users.isActive,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(sessions.accessTokenHash, accessTokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.accessExpiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ?? null;
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
