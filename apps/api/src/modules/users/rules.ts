import { holdsAll, messages, SYSTEM_ROLES, type CreateUserInput } from '@portal/shared';
import type { Db } from '../../db/client.js';
import type { users } from '../../db/schema/index.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { loadRolePermissions } from '../../core/identity/roles.repo.js';
import { findRoleById, findUserRecord } from './users.repo.js';

/** The role must be visible to the organization and, for anyone but super_admin, no wider than the actor's own. */
export async function assignableRole(
  db: Db,
  actor: Actor,
  roleId: string,
  org: { id: string; isPlatform: boolean },
) {
  const role = await findRoleById(db, roleId);
  const visible =
    role !== null &&
    (role.organizationId === null || role.organizationId === org.id) &&
    (role.name !== SYSTEM_ROLES.superAdmin || (actor.isSuperAdmin && org.isPlatform));
  if (!role || !visible) throw notFound(messages.roles.roleNotFound);
  if (!actor.isSuperAdmin) {
    const granted = (await loadRolePermissions(db, [role.id])).get(role.id) ?? [];
    if (!holdsAll(actor.permissions, granted)) throw forbidden(messages.roles.scopeNotHeld);
  }
  return role;
}

/** A user of the actor's tenant, or 404 (never 403: another tenant's user must not be revealed). */
export async function userInScope(db: Db, actor: Actor, userId: string) {
  const record = await findUserRecord(db, userId);
  const scope = tenantScope(actor);
  if (!record || (scope !== null && record.user.organizationId !== scope)) {
    throw notFound(messages.users.notFound);
  }
  return record;
}

/**
 * Anyone but super_admin manages only users whose role is no wider than their own: every route that
 * acts on another user checks it (test/no-wider-role.test.ts).
 */
export async function assertManageable(db: Db, actor: Actor, roleId: string) {
  if (actor.isSuperAdmin) return;
  const held = (await loadRolePermissions(db, [roleId])).get(roleId) ?? [];
  if (!holdsAll(actor.permissions, held)) throw forbidden(messages.roles.scopeNotHeld);
}

/** Whether a role makes its holder an administrator: derived from the role, never trusted from a body. */
export function isAdminRole(roleName: string): boolean {
  return roleName === SYSTEM_ROLES.admin || roleName === SYSTEM_ROLES.superAdmin;
}

/**
 * The row of an invited user, as every invitation writes it (the screen's and an import's): no
 * password until the invitation's link sets one; administrator by role, never by the body.
 */
export function invitedUserRow(
  actor: Actor,
  organizationId: string,
  role: { id: string; name: string },
  data: CreateUserInput,
): typeof users.$inferInsert {
  return {
    organizationId,
    roleId: role.id,
    username: data.username,
    email: data.email,
    fullName: data.fullName ?? null,
    mobileNo: data.mobileNo,
    client: data.client,
    isAdmin: isAdminRole(role.name),
    isActive: data.isActive ?? data.enabled ?? true,
    passwordHash: null,
    createdBy: actor.userId,
  };
}
