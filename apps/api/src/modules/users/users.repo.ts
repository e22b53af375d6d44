import { and, eq, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations, roles, users } from '../../db/schema/index.js';

export type UserRecord = typeof users.$inferSelect;

export async function findOrganizationById(db: Db, id: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, isPlatform: organizations.isPlatform })
    .from(organizations)
    .where(eq(organizations.id, id))
    .limit(1);
  return row ?? null;
}

/** Creates the organization unless it exists (DECISIONS.md: idempotent); true when this call made it. */
export async function insertOrganizationIfMissing(db: Db, values: { id: string; name: string }) {
  const rows = await db
    .insert(organizations)
    .values(values)
    .onConflictDoNothing({ target: organizations.id })
    .returning({ id: organizations.id });
  return rows.length === 1;
}

export async function findRoleById(db: Db, id: string) {
  const [row] = await db
    .select({
      id: roles.id,
      name: roles.name,
      isSystem: roles.isSystem,
      organizationId: roles.organizationId,
    })
    .from(roles)
    .where(eq(roles.id, id))
    .limit(1);
  return row ?? null;
}

/** Another user already holding this username or email, compared case-insensitively. */
export async function findUserHoldingIdentity(
  db: Db,
  identity: { username?: string | undefined; email?: string | undefined },
  exceptUserId?: string,
) {
  const matches = [
    identity.username ? eq(sql`lower(${users.username})`, identity.username.toLowerCase()) : undefined,
    identity.email ? eq(sql`lower(${users.email})`, identity.email.toLowerCase()) : undefined,
  ].filter((m) => m !== undefined);
  if (matches.length === 0) return null;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(or(...matches), exceptUserId ? ne(users.id, exceptUserId) : undefined))
    .limit(1);
  return row ?? null;
}

export async function insertUser(db: Db, values: typeof users.$inferInsert): Promise<UserRecord> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

/** A user with what the rules need: role name and whether the organization is the platform. */
export async function findUserRecord(db: Db, id: string) {
  const [row] = await db
    .select({ user: users, roleName: roles.name, isPlatform: organizations.isPlatform })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}

export async function updateUserRecord(
  db: Db,
  id: string,
  values: Partial<typeof users.$inferInsert>,
): Promise<UserRecord | null> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}
