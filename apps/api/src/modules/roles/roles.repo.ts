import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Role } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { organizations, roles, users } from '../../db/schema/index.js';
import { loadRolePermissions } from '../../core/identity/roles.repo.js';
import { offsetOf } from '../../lib/paging.js';

export type RoleRow = typeof roles.$inferSelect;

/**
 * Roles an organization may see: the system roles (no organization) and its own.
 * `null` means every role (the super administrator's view).
 */
function visibleTo(organizationId: string | null): SQL | undefined {
  return organizationId === null
    ? undefined
    : or(isNull(roles.organizationId), eq(roles.organizationId, organizationId));
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface RoleListFilter {
  /** Organization whose roles (plus the system roles) are listed; null lists every role. */
  organizationId: string | null;
  search?: string | undefined;
  sort?: 'name' | 'createdAt' | 'status' | undefined;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

export async function listRoleRows(
  db: Db,
  filter: RoleListFilter,
): Promise<{ rows: RoleRow[]; total: number }> {
  const term = filter.search?.replace(/^#/, '').trim();
  const pattern = term ? `%${escapeLike(term)}%` : undefined;
  const where = and(
    visibleTo(filter.organizationId),
    pattern
      ? or(sql`${roles.name} ilike ${pattern}`, sql`cast(${roles.id} as text) ilike ${pattern}`)
      : undefined,
  );
  const direction = filter.order === 'desc' ? desc : asc;
  const orderBy =
    filter.sort === 'name'
      ? [direction(sql`lower(${roles.name})`), asc(roles.id)]
      : filter.sort === 'createdAt'
        ? [direction(roles.createdAt), asc(roles.id)]
        : filter.sort === 'status'
          ? [direction(roles.isSystem), asc(sql`lower(${roles.name})`), asc(roles.id)]
          : [desc(roles.isSystem), asc(sql`lower(${roles.name})`), asc(roles.id)];
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(roles)
      .where(where)
      .orderBy(...orderBy)
      .limit(filter.pageSize)
      .offset(offsetOf(filter)),
    db.select({ total: count() }).from(roles).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

/** A role the given organization may see (null: any role), or null. */
export async function findVisibleRole(
  db: Db,
  id: string,
  organizationId: string | null,
): Promise<RoleRow | null> {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.id, id), visibleTo(organizationId)))
    .limit(1);
  return row ?? null;
}

/** Locks the role row for the rest of the transaction, so concurrent edits apply one after another. */
export async function lockRole(db: Db, id: string): Promise<RoleRow | null> {
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).for('update');
  return row ?? null;
}

/**
 * A role that would clash with `name` in `organizationId`: same name ignoring case, among the
 * system roles and that organization's roles.
 */
export async function findRoleNamed(
  db: Db,
  name: string,
  organizationId: string,
  excludeId?: string,
): Promise<RoleRow | null> {
  const [row] = await db
    .select()
    .from(roles)
    .where(
      and(
        sql`lower(${roles.name}) = lower(${name})`,
        visibleTo(organizationId),
        excludeId ? ne(roles.id, excludeId) : undefined,
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Users holding each role, counting only `organizationId`'s users unless it is null. */
export async function countRoleUsers(
  db: Db,
  roleIds: readonly string[],
  organizationId: string | null,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(roleIds.map((id) => [id, 0]));
  if (roleIds.length === 0) return counts;
  const rows = await db
    .select({ roleId: users.roleId, n: count() })
    .from(users)
    .where(
      and(
        inArray(users.roleId, [...roleIds]),
        organizationId === null ? undefined : eq(users.organizationId, organizationId),
      ),
    )
    .groupBy(users.roleId);
  for (const row of rows) counts.set(row.roleId, row.n);
  return counts;
}

export async function insertRole(db: Db, input: { name: string; organizationId: string }): Promise<RoleRow> {
  const [row] = await db
    .insert(roles)
    .values({ name: input.name, organizationId: input.organizationId, isSystem: false })
    .returning();
  return row!;
}

export async function renameRole(db: Db, id: string, name: string): Promise<void> {
  await db.update(roles).set({ name, updatedAt: new Date() }).where(eq(roles.id, id));
}

export async function setRoleRequiresTwoFactor(db: Db, id: string, required: boolean): Promise<void> {
  await db.update(roles).set({ requireTwoFactor: required, updatedAt: new Date() }).where(eq(roles.id, id));
}

export async function deleteRoleRow(db: Db, id: string): Promise<void> {
  await db.delete(roles).where(eq(roles.id, id));
}

/** The API's role shape for a batch of rows: two set-based queries whatever the batch size. */
export async function toRoleDtos(
  db: Db,
  rows: readonly RoleRow[],
  userCountOrganizationId: string | null,
): Promise<Role[]> {
  const ids = rows.map((r) => r.id);
  const [permissions, counts, organizationNames] = await Promise.all([
    loadRolePermissions(db, ids),
    countRoleUsers(db, ids, userCountOrganizationId),
    namesOfOrganizations(db, rows),
  ]);
  return rows.map((row) => ({
    id: row.id,
    code: row.name,
    name: row.name,
    isSystem: row.isSystem,
    organizationId: row.organizationId,
    organizationName:
      row.organizationId === null ? null : (organizationNames.get(row.organizationId) ?? null),
    requireTwoFactor: row.requireTwoFactor,
    permissions: permissions.get(row.id) ?? [],
    userCount: counts.get(row.id) ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** The names of the roles' organizations (custom roles only), in one query. */
async function namesOfOrganizations(db: Db, rows: readonly RoleRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((r) => (r.organizationId === null ? [] : [r.organizationId])))];
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(inArray(organizations.id, ids));
  return new Map(found.map((o) => [o.id, o.name]));
}
