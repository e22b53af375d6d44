import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/** The active user with this email (compared case-insensitively), or null: whom a reset link goes to. */
export async function findActiveUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      organizationId: users.organizationId,
      isActive: users.isActive,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  return row?.isActive ? { id: row.id, email: row.email, organizationId: row.organizationId } : null;
}

export async function findPasswordHash(db: Db, userId: string) {
  const [row] = await db
    .select({ passwordHash: users.passwordHash, organizationId: users.organizationId })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** Sets the user's password hash; returns the user's organization, or null for no such user. */
export async function setPasswordHash(db: Db, userId: string, passwordHash: string) {
  const now = new Date();
  const [row] = await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: now, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({ organizationId: users.organizationId });
  return row ?? null;
}
