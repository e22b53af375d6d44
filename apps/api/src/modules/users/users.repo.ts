import { and, eq, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { UserSortField } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import { organizations, roles, users } from '../../db/schema/index.js';
import {
  identitySnapshot,
  identityVersionOf,
  identityVersionSql,
  latestIdentitySnapshot,
  readIdentityVersion,
} from '../../core/identity/cache.repo.js';
import { userScreenColumns, userWithRoleColumns, type UserDtoRow } from '../../core/identity/users.repo.js';

export type UserRecord = typeof users.$inferSelect;

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

/**
 * The users holding any of these emails or usernames (lowercase), across the portal: a bulk import's
 * lookup, one statement per call (the caller sends them in chunks).
 */
export async function findUsersHoldingIdentities(
  db: Db,
  emails: readonly string[],
  usernames: readonly string[],
) {
  return db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      mobileNo: users.mobileNo,
      organizationId: users.organizationId,
      roleId: users.roleId,
    })
    .from(users)
    .where(
      or(
        sql`lower(${users.email}) = any(${sql.param([...emails])}::text[])`,
        sql`lower(${users.username}) = any(${sql.param([...usernames])}::text[])`,
      ),
    );
}

/** The roles an organization's users may hold: its own and the system roles. */
export async function findRolesVisibleTo(db: Db, organizationId: string) {
  return db
    .select({ id: roles.id, name: roles.name, organizationId: roles.organizationId })
    .from(roles)
    .where(or(isNull(roles.organizationId), eq(roles.organizationId, organizationId)));
}

export async function insertUser(db: Db, values: typeof users.$inferInsert): Promise<UserRecord> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

/**
 * Inserts the users whose username and email are free, in one statement, and answers those it
 * inserted. A row whose username or email is taken, by a committed user or by one a concurrent
 * transaction commits meanwhile (the unique indexes decide), is left out rather than an error.
 */
export async function insertUsersWhereFree(
  db: Db,
  values: readonly (typeof users.$inferInsert)[],
): Promise<UserRecord[]> {
  if (values.length === 0) return [];
  return db
    .insert(users)
    .values([...values])
    .onConflictDoNothing()
    .returning();
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

/** Who the account is, for a change to one's own profile. */
export async function findOwnAccount(db: Db, userId: string) {
  const [row] = await db
    .select({ organizationId: users.organizationId, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** The fields a user edits on their own profile page (the profile module's PUT /api/auth/profile). */
export async function updateProfileFields(
  db: Db,
  userId: string,
  values: { fullName: string; mobileNo: string; username?: string | undefined },
): Promise<void> {
  await db
    .update(users)
    .set({
      fullName: values.fullName,
      mobileNo: values.mobileNo,
      ...(values.username !== undefined ? { username: values.username } : {}),
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}

/**
 * Points the user at a new profile image and returns the previous one's id. The row lock makes two
 * replacements at once run one after the other, so neither leaves its predecessor behind.
 */
export async function replaceProfileImageId(db: Db, userId: string, fileId: string): Promise<string | null> {
  const [current] = await db
    .select({ old: users.profileImageFileId })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  await db
    .update(users)
    .set({ profileImageFileId: fileId, updatedAt: new Date() })
    .where(eq(users.id, userId));
  return current?.old ?? null;
}

export interface UserFilter {
  /** Tenant confinement: null for super_admin. */
  scope: string | null;
  organizationId?: string | undefined;
  search?: string | undefined;
  /** A role name (case-insensitive) or a role id. */
  role?: string | undefined;
  status?: 'active' | 'inactive' | undefined;
}

export interface UserOrder {
  sort: UserSortField;
  order: 'asc' | 'desc';
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `%term%` with LIKE's own wildcards taken literally; control characters (the separator) dropped. */
function containsPattern(term: string): string {
  // chr(31) separates the fields in userSearchText; control characters cannot match across them.
  const clean = [...term]
    .filter((c) => c.charCodeAt(0) >= 32)
    .join('')
    .toLowerCase();
  return `%${clean.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The searched text of a user. Migration 0001 indexes exactly this expression with pg_trgm, so a
 * substring search over 100,000 users is an index scan; change both together.
 */
export const userSearchText: SQL = sql`lower(${users.username} || chr(31) || ${users.email} || chr(31) || coalesce(${users.fullName}, '') || chr(31) || coalesce(${users.client}, ''))`;

/** Role ids answering to a role filter: an id as is, a name case-insensitively. */
export async function resolveRoleFilter(db: Db, role: string): Promise<string[]> {
  if (UUID_PATTERN.test(role)) return [role];
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(eq(sql`lower(${roles.name})`, role.toLowerCase()));
  return rows.map((r) => r.id);
}

function userWhere(filter: UserFilter, roleIds: string[] | null): SQL | undefined {
  const search = filter.search?.trim();
  return and(
    filter.scope ? eq(users.organizationId, filter.scope) : undefined,
    filter.organizationId ? eq(users.organizationId, filter.organizationId) : undefined,
    roleIds === null
      ? undefined
      : roleIds.length === 1
        ? eq(users.roleId, roleIds[0]!)
        : roleIds.length === 0
          ? sql`false`
          : // One array parameter, not one per id: the statement's text (its prepared name) stays the same.
            sql`${users.roleId} = any(${sql.param(roleIds)}::uuid[])`,
    filter.status ? eq(users.isActive, filter.status === 'active') : undefined,
    search ? sql`${userSearchText} like ${containsPattern(search)}` : undefined,
  );
}

async function whereFor(db: Db, filter: UserFilter) {
  return userWhere(filter, filter.role ? await resolveRoleFilter(db, filter.role) : null);
}

/**
 * The sort keys of each sortable column, ending with the id so the order is total (stable pages,
 * keyset export). Every key runs in the same direction, so a row comparison continues after a row.
 */
function sortKeys(sort: UserSortField): SQL[] {
  switch (sort) {
    case 'username':
      return [sql`lower(${users.username})`, sql`${users.id}`];
    case 'email':
      return [sql`lower(${users.email})`, sql`${users.id}`];
    case 'client':
      return [sql`lower(coalesce(${users.client}, ''))`, sql`${users.id}`];
    case 'status':
      return [sql`${users.isActive}`, sql`${users.createdAt}`, sql`${users.id}`];
    case 'createdAt':
      return [sql`${users.createdAt}`, sql`${users.id}`];
  }
}

function orderBy(o: UserOrder): SQL[] {
  return sortKeys(o.sort).map((k) => (o.order === 'asc' ? sql`${k} asc` : sql`${k} desc`));
}

/** Role ids answering to a role name, with the identity version they were read at. */
async function resolveRoleNameAt(db: Db, name: string) {
  const [row] = await db
    .select({ version: identityVersionSql, ids: sql<string[]>`coalesce(json_agg(${roles.id}), '[]'::json)` })
    .from(roles)
    .where(eq(sql`lower(${roles.name})`, name));
  const version = identityVersionOf(row!.version);
  identitySnapshot(db, version).roleNames.set(name, row!.ids);
  return { version, ids: row!.ids };
}

/** What `meta.total` of a filter is cached under (role names are resolved per identity version too). */
function countKey(filter: UserFilter): string {
  const search = filter.search?.trim();
  return JSON.stringify([
    filter.scope,
    filter.organizationId ?? null,
    filter.role === undefined
      ? null
      : UUID_PATTERN.test(filter.role)
        ? filter.role
        : filter.role.toLowerCase(),
    filter.status ?? null,
    search ? containsPattern(search) : null,
  ]);
}

/**
 * One page of the user list (GET /api/auth/users) as answer rows, the identity version read with it,
 * and the total matching the filter. In the steady state this is ONE statement: the page and
 * the version; a role name resolves to ids and the total is counted once per identity version (any
 * committed change to users or roles bumps it, migration 0002), then kept in this process's snapshot
 * of that version. So the total never scans the matching rows twice for the same data, and is exact.
 */
export async function listUserPage(
  db: Db,
  filter: UserFilter,
  o: UserOrder,
  page: PageQuery,
): Promise<{ rows: UserDtoRow[]; version: number; total: number }> {
  const roleName =
    filter.role !== undefined && !UUID_PATTERN.test(filter.role) ? filter.role.toLowerCase() : null;
  for (let attempt = 0; ; attempt++) {
    let roleIds: string[] | null = filter.role === undefined ? null : [filter.role];
    let resolvedAt: number | null = null;
    if (roleName !== null) {
      const known = latestIdentitySnapshot(db);
      const cached = attempt === 0 ? known?.roleNames.get(roleName) : undefined;
      if (known && cached) {
        roleIds = cached;
        resolvedAt = known.version;
      } else {
        const resolved = await resolveRoleNameAt(db, roleName);
        roleIds = resolved.ids;
        resolvedAt = resolved.version;
      }
    }
    // The version rides on every row (evaluated once); a page with no row reads it on its own.
    const found = await db
      .select({ version: identityVersionSql, ...userScreenColumns })
      .from(users)
      .where(userWhere(filter, roleIds))
      .orderBy(...orderBy(o))
      .limit(page.pageSize)
      .offset(offsetOf(page));
    const rows: UserDtoRow[] = found.map(({ version: _version, ...user }) => user);
    const version = identityVersionOf(found[0] ? found[0].version : await readIdentityVersion(db));
    // Role names changed between resolving and reading: resolve again at the new version (once).
    if (resolvedAt !== null && resolvedAt !== version && attempt === 0) continue;

    // An empty first page has no match: nothing to count, and nothing to cache, because its version
    // came from a later statement and may be newer than what the page saw.
    if (rows.length === 0 && page.page === 1) return { rows, version, total: 0 };

    const snapshot = identitySnapshot(db, version);
    const key = countKey(filter);
    let total = snapshot.userCounts.get(key);
    if (total === undefined) {
      const [c] = await db
        .select({ version: identityVersionSql, total: sql<number>`count(*)::int` })
        .from(users)
        .where(userWhere(filter, roleIds));
      total = c!.total;
      // Cached under the version the count itself read, which is the version it is true for.
      identitySnapshot(db, identityVersionOf(c!.version)).userCounts.set(key, total);
    }
    return { rows, version, total };
  }
}

/**
 * Every user matching the filter, in batches, in list order. Keyset pagination (a row comparison
 * on the sort keys), so the last batch costs what the first does however many rows there are.
 */
export async function* iterateUserRows(db: Db, filter: UserFilter, o: UserOrder, batchSize = 1_000) {
  const keys = sortKeys(o.sort);
  const keyList = sql.join(keys, sql`, `);
  const where = await whereFor(db, filter);
  let after: unknown[] | null = null;
  for (;;) {
    const cursor: SQL | undefined = after
      ? o.order === 'asc'
        ? sql`(${keyList}) > (${sql.join(
            after.map((v) => sql`${v}`),
            sql`, `,
          )})`
        : sql`(${keyList}) < (${sql.join(
            after.map((v) => sql`${v}`),
            sql`, `,
          )})`
      : undefined;
    const rows = await db
      .select({
        ...userWithRoleColumns,
        keys: sql<unknown[]>`json_build_array(${keyList})`,
      })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .innerJoin(organizations, eq(organizations.id, users.organizationId))
      .where(and(where, cursor))
      .orderBy(...orderBy(o))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.keys;
  }
}
