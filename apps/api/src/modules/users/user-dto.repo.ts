import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { InviteStatus, User } from '@portal/shared';
import { SYSTEM_ROLES } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { oneTimeTokens, organizations, roles, subscriptions, users } from '../../db/schema/index.js';
import { loadRolePermissions } from '../roles/permissions.repo.js';

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

export function profileImageUrl(fileId: string | null): string | null {
  return fileId ? `/api/files/${fileId}` : null;
}

/**
 * Builds the API's user shape for a batch of rows with three set-based queries (permissions,
 * active subscriptions, open invites), whatever the batch size.
 */
export async function toUserDtos(db: Db, rows: readonly UserRow[]): Promise<User[]> {
  if (rows.length === 0) return [];
  const now = new Date();
  const roleIds = [...new Set(rows.map((r) => r.user.roleId))];
  const orgIds = [...new Set(rows.map((r) => r.user.organizationId))];
  const pendingIds = rows.filter((r) => r.user.passwordHash === null).map((r) => r.user.id);

  const [permissions, subscribed, invites] = await Promise.all([
    loadRolePermissions(db, roleIds),
    db
      .selectDistinct({ organizationId: subscriptions.organizationId })
      .from(subscriptions)
      .where(
        and(
          inArray(subscriptions.organizationId, orgIds),
          eq(subscriptions.status, 'ACTIVE'),
          gt(subscriptions.validUntil, now),
        ),
      ),
    pendingIds.length === 0
      ? Promise.resolve([])
      : db
          .selectDistinct({ userId: oneTimeTokens.userId })
          .from(oneTimeTokens)
          .where(
            and(
              inArray(oneTimeTokens.userId, pendingIds),
              eq(oneTimeTokens.purpose, 'invite'),
              isNull(oneTimeTokens.usedAt),
              gt(oneTimeTokens.expiresAt, now),
            ),
          ),
  ]);
  const subscribedOrgs = new Set(subscribed.map((s) => s.organizationId));
  const openInvites = new Set(invites.map((i) => i.userId));

  return rows.map(({ user, roleName, roleIsSystem, isPlatform }) => {
    const inviteStatus: InviteStatus =
      user.passwordHash !== null ? 'accepted' : openInvites.has(user.id) ? 'pending' : 'expired';
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      fullName: user.fullName,
      mobileNo: user.mobileNo,
      enabled: user.isActive,
      isActive: user.isActive,
      // The platform organization (super administrators) needs no subscription.
      isSubscription: isPlatform || subscribedOrgs.has(user.organizationId),
      client: user.client,
      roleId: user.roleId,
      role: {
        id: user.roleId,
        name: roleName,
        isSystem: roleIsSystem,
        permissions: permissions.get(user.roleId) ?? [],
      },
      organizationId: user.organizationId,
      isAdmin: user.isAdmin || roleName === SYSTEM_ROLES.superAdmin,
      inviteStatus,
      profileImage: profileImageUrl(user.profileImageFileId),
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    };
  });
}

export function selectUsersWithRole(db: Db) {
  return db
    .select(userWithRoleColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .innerJoin(organizations, eq(organizations.id, users.organizationId));
}

export async function findUserDto(db: Db, userId: string): Promise<User | null> {
  const rows = await selectUsersWithRole(db).where(eq(users.id, userId)).limit(1);
  const [dto] = await toUserDtos(db, rows);
  return dto ?? null;
}
