import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { InviteStatus, User } from '@portal/shared';
import { SYSTEM_ROLES } from '@portal/shared';
import type { Db } from '../../db/client.js';
import {
  oneTimeTokens,
  organizations,
  roles,
  subscriptions,
  users,
  userTotp,
} from '../../db/schema/index.js';
import {
  identitySnapshot,
  identityVersionOf,
  identityVersionSql,
  type CachedOrganization,
  type CachedRole,
} from './cache.repo.js';
import { loadRoles, rolesAt } from './roles.repo.js';

export const userWithRoleColumns = {
  user: users,
  roleName: roles.name,
  roleIsSystem: roles.isSystem,
  isPlatform: organizations.isPlatform,
};

type UserRow = {
  user: typeof users.$inferSelect;
  roleName: string;
  roleIsSystem: boolean;
  isPlatform: boolean;
};

/** The fields of a user that its answer shows: no password hash, only whether it is set. */
export interface UserDtoRow {
  id: string;
  username: string;
  email: string;
  fullName: string | null;
  mobileNo: string | null;
  client: string | null;
  isActive: boolean;
  isAdmin: boolean;
  roleId: string;
  organizationId: string;
  profileImageFileId: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** No password yet: the invite state depends on the open invites. */
  pending: boolean;
  /** Read by the Users screen's reads only (`userScreenColumns`), not by sign-in's statements. */
  twoFactorEnabled?: boolean;
}

/** The columns of `users` that make a `UserDtoRow`, for a select. */
export const userDtoColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  fullName: users.fullName,
  mobileNo: users.mobileNo,
  client: users.client,
  isActive: users.isActive,
  isAdmin: users.isAdmin,
  roleId: users.roleId,
  organizationId: users.organizationId,
  profileImageFileId: users.profileImageFileId,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  pending: sql<boolean>`${users.passwordHash} is null`.as('pending'),
};

/**
 * `userDtoColumns` and whether the user has a second factor, for the Users screen (its list and its
 * details), where the platform operator may reset one. A primary-key probe per row of a page.
 */
export const userScreenColumns = {
  ...userDtoColumns,
  twoFactorEnabled:
    sql<boolean>`exists (select 1 from ${userTotp} t where t.user_id = ${users.id} and t.confirmed_at is not null)`.as(
      'two_factor_enabled',
    ),
};

export function profileImageUrl(fileId: string | null): string | null {
  return fileId ? `/api/files/${fileId}` : null;
}

/** The API's user shape from its row, its role, its organization and whether an invite is open. */
function userDto(
  user: UserDtoRow,
  role: CachedRole,
  organization: CachedOrganization | undefined,
  inviteOpen: boolean,
  now: number,
): User {
  const inviteStatus: InviteStatus = !user.pending ? 'accepted' : inviteOpen ? 'pending' : 'expired';
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    fullName: user.fullName,
    mobileNo: user.mobileNo,
    enabled: user.isActive,
    isActive: user.isActive,
    // The platform organization (super administrators) needs no subscription.
    isSubscription:
      !!organization &&
      (organization.isPlatform || (organization.activeUntil !== null && organization.activeUntil > now)),
    client: user.client,
    roleId: user.roleId,
    role: { id: user.roleId, name: role.name, isSystem: role.isSystem, permissions: role.permissions },
    organizationId: user.organizationId,
    isAdmin: user.isAdmin || role.name === SYSTEM_ROLES.superAdmin,
    inviteStatus,
    profileImage: profileImageUrl(user.profileImageFileId),
    ...(user.twoFactorEnabled === undefined ? {} : { twoFactorEnabled: user.twoFactorEnabled }),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** Platform flag and latest ACTIVE subscription end of organizations, with the identity version. */
async function loadOrganizations(db: Db, organizationIds: readonly string[]) {
  const { rows } = await db.execute<{
    version: number | string;
    organizations: { id: string; isPlatform: boolean; activeUntil: string | null }[];
  }>(
    sql`
      select ${identityVersionSql} as version, coalesce(json_agg(json_build_object(
        'id', o.id, 'isPlatform', o.is_platform,
        'activeUntil', (select max(s.valid_until) from ${subscriptions} s where s.organization_id = o.id and s.status = 'ACTIVE')
      )), '[]'::json) as organizations
      from ${organizations} o where o.id = any(${sql.param([...organizationIds])}::uuid[])`,
  );
  const [row] = rows;
  const byId = new Map<string, CachedOrganization>();
  for (const o of row!.organizations) {
    byId.set(o.id, {
      isPlatform: o.isPlatform,
      activeUntil: o.activeUntil === null ? null : new Date(o.activeUntil).getTime(),
    });
  }
  return { version: identityVersionOf(row!.version), organizations: byId };
}

/** Organizations as of identity `version`: from this process's snapshot, the missing ones loaded. */
async function organizationsAt(db: Db, version: number, organizationIds: readonly string[]) {
  const snapshot = identitySnapshot(db, version);
  const found = new Map<string, CachedOrganization>();
  const missing: string[] = [];
  for (const id of new Set(organizationIds)) {
    const organization = snapshot.organizations.get(id);
    if (organization) found.set(id, organization);
    else missing.push(id);
  }
  if (missing.length === 0) return found;
  const loaded = await loadOrganizations(db, missing);
  const keep = identitySnapshot(db, loaded.version);
  for (const [id, organization] of loaded.organizations) {
    keep.organizations.set(id, organization);
    found.set(id, organization);
  }
  return found;
}

/** Users (of `pendingIds`, who have no password) holding an unused, unexpired invite. */
async function openInvites(db: Db, pendingIds: readonly string[], now: Date): Promise<Set<string>> {
  if (pendingIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ userId: oneTimeTokens.userId })
    .from(oneTimeTokens)
    .where(
      and(
        inArray(oneTimeTokens.userId, [...pendingIds]),
        eq(oneTimeTokens.purpose, 'invite'),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    );
  return new Set(rows.map((r) => r.userId));
}

/**
 * The API's user shape for rows read together with identity `version`. Roles (with permissions) and
 * organizations come from the identity snapshot of that version, so a page read again costs no
 * further statement; what is missing is loaded in one statement each. Open invites are read only
 * when the page holds users without a password.
 */
export async function userDtosAt(db: Db, rows: readonly UserDtoRow[], version: number): Promise<User[]> {
  if (rows.length === 0) return [];
  const now = new Date();
  const [rolesById, organizationsById, invites] = await Promise.all([
    rolesAt(
      db,
      version,
      rows.map((r) => r.roleId),
    ),
    organizationsAt(
      db,
      version,
      rows.map((r) => r.organizationId),
    ),
    openInvites(
      db,
      rows.filter((r) => r.pending).map((r) => r.id),
      now,
    ),
  ]);
  return rows.flatMap((row) => {
    const role = rolesById.get(row.roleId);
    // A role deleted between the two reads: the user is left out rather than shown without one.
    return role
      ? [userDto(row, role, organizationsById.get(row.organizationId), invites.has(row.id), now.getTime())]
      : [];
  });
}

/**
 * Builds the API's user shape for a batch of rows (the export's keyset batches) with three set-based
 * queries (roles with permissions, organizations, open invites), whatever the batch size.
 */
export async function toUserDtos(db: Db, rows: readonly UserRow[]): Promise<User[]> {
  if (rows.length === 0) return [];
  const now = new Date();
  const dtoRows: UserDtoRow[] = rows.map(({ user }) => ({
    id: user.id,
    username: user.username,
    email: user.email,
    fullName: user.fullName,
    mobileNo: user.mobileNo,
    client: user.client,
    isActive: user.isActive,
    isAdmin: user.isAdmin,
    roleId: user.roleId,
    organizationId: user.organizationId,
    profileImageFileId: user.profileImageFileId,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    pending: user.passwordHash === null,
  }));
  const [loadedRoles, loadedOrganizations, invites] = await Promise.all([
    loadRoles(db, [...new Set(dtoRows.map((r) => r.roleId))]),
    loadOrganizations(db, [...new Set(dtoRows.map((r) => r.organizationId))]),
    openInvites(
      db,
      dtoRows.filter((r) => r.pending).map((r) => r.id),
      now,
    ),
  ]);
  return dtoRows.flatMap((row, i) => {
    const role = loadedRoles.roles.get(row.roleId) ?? {
      name: rows[i]!.roleName,
      isSystem: rows[i]!.roleIsSystem,
      requireTwoFactor: false,
      permissions: [],
    };
    return [
      userDto(
        row,
        role,
        loadedOrganizations.organizations.get(row.organizationId),
        invites.has(row.id),
        now.getTime(),
      ),
    ];
  });
}

/** One user's answer: one statement (the row and the identity version), roles and organization cached. */
export async function findUserDto(db: Db, userId: string): Promise<User | null> {
  const [row] = await db
    .select({ version: identityVersionSql, ...userScreenColumns })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return null;
  const { version, ...user } = row;
  const [dto] = await userDtosAt(db, [user], identityVersionOf(version));
  return dto ?? null;
}
