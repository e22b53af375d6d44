import {
  mayManage,
  meets,
  messages,
  REQUIREMENTS,
  roleInUse,
  SYSTEM_ROLES,
  type Role,
  type RoleInput,
  type RoleListQuery,
} from '@portal/shared';
import { conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { pageEnvelope } from '../../lib/paging.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { loadRolePermissions } from '../../core/identity/roles.repo.js';
import type { Db } from '../../db/client.js';
import { featureRows } from '../features/index.js';
import { findOrganization } from '../organizations/index.js';
import { resolveGrants, type Grant } from './grants.js';
import { replaceRolePermissions } from './permissions.repo.js';
import {
  countRoleUsers,
  deleteRoleRow,
  findRoleNamed,
  findVisibleRole,
  insertRole,
  listRoleRows,
  lockRole,
  renameRole,
  setRoleRequiresTwoFactor,
  toRoleDtos,
  type RoleRow,
} from './roles.repo.js';

/**
 * Nobody grants a scope they do not hold (the super administrator holds all). Applied to every
 * scope of the resulting role, as Kubernetes RBAC does against privilege escalation
 * (docs/decisions/003-roles-and-permissions.md).
 */
function assertHeld(actor: Actor, grants: readonly Grant[], message: string = messages.roles.scopeNotHeld) {
  if (actor.isSuperAdmin) return;
  for (const grant of grants) {
    const held = actor.permissions.find((p) => p.featureId === grant.featureId)?.permissionScopes ?? [];
    if (grant.scopes.some((s) => !held.includes(s))) throw forbidden(message);
  }
}

/**
 * Editing a role changes what everyone who holds it can do, so the editor must be able to manage
 * each of them (the rule users.service applies to one user): the role's current scopes must all be
 * the editor's too. Otherwise a member could narrow a more privileged colleague's role, then
 * deactivate the colleague.
 */
async function assertManagesHolders(tx: Db, actor: Actor, roleId: string): Promise<void> {
  const current = (await loadRolePermissions(tx, [roleId])).get(roleId) ?? [];
  if (!mayManage(actor, current)) throw forbidden(messages.roles.holdersOutrankEditor);
}

function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23503') return true;
  }
  return false;
}

async function visibleRoleOr404(db: Db, actor: Actor, id: string): Promise<RoleRow> {
  const role = await findVisibleRole(db, id, tenantScope(actor));
  if (!role) throw notFound(messages.roles.roleNotFound);
  return role;
}

async function roleAnswer(db: Db, actor: Actor, role: RoleRow): Promise<Role> {
  const [dto] = await toRoleDtos(db, [role], tenantScope(actor));
  return dto!;
}

/** GET /api/auth/roles: system roles plus the actor's organization's (every role for super_admin). */
export async function listRoles(deps: Deps, actor: Actor, query: RoleListQuery) {
  const scope = tenantScope(actor);
  const { rows, total } = await listRoleRows(deps.db, {
    organizationId: scope ?? query.organizationId ?? null,
    search: query.search,
    sort: query.sort,
    order: query.order,
    page: query.page,
    pageSize: query.pageSize,
  });
  return pageEnvelope(query, await toRoleDtos(deps.db, rows, scope), total);
}

export async function getRole(deps: Deps, actor: Actor, input: { id: string }): Promise<Role> {
  return roleAnswer(deps.db, actor, await visibleRoleOr404(deps.db, actor, input.id));
}

export async function createRole(deps: Deps, actor: Actor, input: RoleInput): Promise<Role> {
  let organizationId = actor.organizationId;
  if (input.organizationId && input.organizationId !== actor.organizationId) {
    // Another tenant: only the super administrator may name one, and it must exist.
    if (!actor.isSuperAdmin || !(await findOrganization(deps, actor, { id: input.organizationId }))) {
      throw notFound();
    }
    organizationId = input.organizationId;
  }
  const grants = resolveGrants(await featureRows(deps, actor), input.permissions);
  assertHeld(actor, grants);
  try {
    const role = await deps.db.transaction(async (tx) => {
      if (await findRoleNamed(tx, input.name, organizationId)) throw conflict(messages.roles.nameTaken);
      const row = await insertRole(tx, { name: input.name, organizationId });
      await replaceRolePermissions(tx, row.id, grants);
      await recordActivity(tx, {
        organizationId,
        actorUserId: actor.userId,
        action: 'created',
        entityType: 'role',
        entityId: row.id,
        message: `Role "${row.name}" created`,
      });
      return row;
    });
    return await roleAnswer(deps.db, actor, role);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(messages.roles.nameTaken);
    throw error;
  }
}

export async function updateRole(
  deps: Deps,
  actor: Actor,
  input: { id: string; body: RoleInput },
): Promise<Role> {
  const { id, body } = input;
  const existing = await visibleRoleOr404(deps.db, actor, id);
  if (existing.isSystem || existing.organizationId === null) throw forbidden(messages.roles.systemReadOnly);
  const organizationId = existing.organizationId;
  const grants = resolveGrants(await featureRows(deps, actor), body.permissions);
  assertHeld(actor, grants);
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await lockRole(tx, id))) throw notFound(messages.roles.roleNotFound);
      await assertManagesHolders(tx, actor, id);
      if (await findRoleNamed(tx, body.name, organizationId, id)) throw conflict(messages.roles.nameTaken);
      await renameRole(tx, id, body.name);
      await replaceRolePermissions(tx, id, grants);
      await recordActivity(tx, {
        organizationId,
        actorUserId: actor.userId,
        action: 'updated',
        entityType: 'role',
        entityId: id,
        message:
          existing.name === body.name
            ? `Role "${body.name}" updated`
            : `Role "${existing.name}" renamed to "${body.name}" and updated`,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(messages.roles.nameTaken);
    throw error;
  }
  return getRole(deps, actor, { id });
}

export async function deleteRole(deps: Deps, actor: Actor, input: { id: string }): Promise<void> {
  const { id } = input;
  const existing = await visibleRoleOr404(deps.db, actor, id);
  if (existing.isSystem || existing.organizationId === null) throw forbidden(messages.roles.systemReadOnly);
  const organizationId = existing.organizationId;
  const holders = async () => (await countRoleUsers(deps.db, [id], null)).get(id) ?? 0;
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await lockRole(tx, id))) throw notFound(messages.roles.roleNotFound);
      const n = (await countRoleUsers(tx, [id], null)).get(id) ?? 0;
      if (n > 0) throw conflict(roleInUse(n));
      await deleteRoleRow(tx, id);
      await recordActivity(tx, {
        organizationId,
        actorUserId: actor.userId,
        action: 'deleted',
        entityType: 'role',
        entityId: id,
        message: `Role "${existing.name}" deleted`,
      });
    });
  } catch (error) {
    // A user given the role between the count and the delete.
    if (isForeignKeyViolation(error)) throw conflict(roleInUse(Math.max(1, await holders())));
    throw error;
  }
}

/**
 * Whether a role's users must sign in with a second factor: the platform operator's policy, for any
 * role but the super administrator's (always). Users of the role without one are led to enrol at
 * their next request.
 */
export async function setRoleTwoFactor(
  deps: Deps,
  actor: Actor,
  input: { id: string; required: boolean },
): Promise<Role> {
  const { id, required } = input;
  if (!meets(actor, REQUIREMENTS.requireTwoFactor)) throw forbidden(messages.twoFactor.onlyPlatformRequires);
  const existing = await visibleRoleOr404(deps.db, actor, id);
  if (existing.organizationId === null && existing.name === SYSTEM_ROLES.superAdmin) {
    throw forbidden(messages.twoFactor.superAdminAlwaysRequired);
  }
  if (existing.requireTwoFactor !== required) {
    await deps.db.transaction(async (tx) => {
      await setRoleRequiresTwoFactor(tx, id, required);
      await recordActivity(tx, {
        organizationId: existing.organizationId ?? actor.organizationId,
        actorUserId: actor.userId,
        action: 'updated',
        entityType: 'role',
        entityId: id,
        message: `Role "${existing.name}": two-factor sign-in ${required ? 'required' : 'no longer required'}`,
      });
    });
  }
  return getRole(deps, actor, { id });
}
