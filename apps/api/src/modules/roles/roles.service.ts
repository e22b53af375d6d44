import type { FastifyInstance } from 'fastify';
import {
  mayManage,
  meets,
  messages,
  REQUIREMENTS,
  roleInUse,
  scopesOfInput,
  SCOPES,
  SYSTEM_ROLES,
  type PageMeta,
  type PermissionInput,
  type Role,
  type RoleInput,
  type RoleListQuery,
  type Scope,
} from '@portal/shared';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { listFeatureRows, type FeatureRow } from '../features/features.repo.js';
import type { Db } from '../../db/client.js';
import { replaceRolePermissions } from './permissions.repo.js';
import { loadRolePermissions } from '../../core/identity/roles.repo.js';
import {
  countRoleUsers,
  deleteRoleRow,
  findRoleNamed,
  findVisibleRole,
  insertRole,
  listRoleRows,
  lockRole,
  organizationExists,
  renameRole,
  setRoleRequiresTwoFactor,
  toRoleDtos,
  type RoleRow,
} from './roles.repo.js';

export interface Grant {
  featureId: string;
  scopes: Scope[];
}

/**
 * Turns the submitted entries (list or legacy bitmask shape) into one grant per known feature.
 * Entries with no known scope are dropped; an entry granting scopes on a feature that does not
 * exist is refused; at least one grant must remain.
 */
export function resolveGrants(features: readonly FeatureRow[], entries: readonly PermissionInput[]): Grant[] {
  const byId = new Map(features.map((f) => [f.id, f]));
  const byName = new Map(features.map((f) => [f.name.toLowerCase(), f]));
  const granted = new Map<string, Set<Scope>>();
  for (const entry of entries) {
    const scopes = scopesOfInput(entry);
    if (scopes.length === 0) continue;
    const feature =
      (entry.featureId ? byId.get(entry.featureId) : undefined) ??
      (entry.featureName ? byName.get(entry.featureName.toLowerCase()) : undefined);
    if (!feature) throw badRequest(messages.roles.featureNotFound);
    const set = granted.get(feature.id) ?? new Set<Scope>();
    for (const scope of scopes) set.add(scope);
    granted.set(feature.id, set);
  }
  if (granted.size === 0) throw badRequest(messages.roles.permissionRequired);
  return features
    .filter((f) => granted.has(f.id))
    .map((f) => ({ featureId: f.id, scopes: SCOPES.filter((s) => granted.get(f.id)!.has(s)) }));
}

/**
 * Nobody grants a scope they do not hold (the super administrator holds all). Applied to every
 * scope of the resulting role, as Kubernetes RBAC does against privilege escalation
 * (docs/decisions/003-roles-and-permissions.md).
 */
function assertHeld(auth: Actor, grants: readonly Grant[], message: string = messages.roles.scopeNotHeld) {
  if (auth.isSuperAdmin) return;
  for (const grant of grants) {
    const held = auth.permissions.find((p) => p.featureId === grant.featureId)?.permissionScopes ?? [];
    if (grant.scopes.some((s) => !held.includes(s))) throw forbidden(message);
  }
}

/**
 * Editing a role changes what everyone who holds it can do, so the editor must be able to manage
 * each of them (the rule users.service applies to one user): the role's current scopes must all be
 * the editor's too. Otherwise a member could narrow a more privileged colleague's role, then
 * deactivate the colleague.
 */
async function assertManagesHolders(tx: Db, auth: Actor, roleId: string): Promise<void> {
  const current = (await loadRolePermissions(tx, [roleId])).get(roleId) ?? [];
  if (!mayManage(auth, current)) throw forbidden(messages.roles.holdersOutrankEditor);
}

function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23503') return true;
  }
  return false;
}

async function visibleRoleOr404(app: FastifyInstance, auth: Actor, id: string): Promise<RoleRow> {
  const role = await findVisibleRole(app.db, id, tenantScope(auth));
  if (!role) throw notFound(messages.roles.roleNotFound);
  return role;
}

/** System roles plus the caller's organization's roles (every role for the super administrator). */
export async function listRoles(
  app: FastifyInstance,
  auth: Actor,
  query: RoleListQuery,
): Promise<{ data: Role[]; meta: PageMeta }> {
  const scope = tenantScope(auth);
  const { rows, total } = await listRoleRows(app.db, {
    organizationId: scope ?? query.organizationId ?? null,
    search: query.search,
    sort: query.sort,
    order: query.order,
    page: query.page,
    pageSize: query.pageSize,
  });
  const data = await toRoleDtos(app.db, rows, scope);
  return { data, meta: { page: query.page, pageSize: query.pageSize, total } };
}

export async function getRole(app: FastifyInstance, auth: Actor, id: string): Promise<Role> {
  const role = await visibleRoleOr404(app, auth, id);
  const [dto] = await toRoleDtos(app.db, [role], tenantScope(auth));
  return dto!;
}

export async function createRole(app: FastifyInstance, auth: Actor, input: RoleInput): Promise<Role> {
  let organizationId = auth.organizationId;
  if (input.organizationId && input.organizationId !== auth.organizationId) {
    // Another tenant: only the super administrator may name one, and it must exist.
    if (!auth.isSuperAdmin || !(await organizationExists(app.db, input.organizationId))) throw notFound();
    organizationId = input.organizationId;
  }
  const grants = resolveGrants(await listFeatureRows(app.db), input.permissions);
  assertHeld(auth, grants);
  try {
    const role = await app.db.transaction(async (tx) => {
      if (await findRoleNamed(tx, input.name, organizationId)) throw conflict(messages.roles.nameTaken);
      const row = await insertRole(tx, { name: input.name, organizationId });
      await replaceRolePermissions(tx, row.id, grants);
      await recordActivity(tx, {
        organizationId,
        actorUserId: auth.userId,
        action: 'created',
        entityType: 'role',
        entityId: row.id,
        message: `Role "${row.name}" created`,
      });
      return row;
    });
    const [dto] = await toRoleDtos(app.db, [role], tenantScope(auth));
    return dto!;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(messages.roles.nameTaken);
    throw error;
  }
}

export async function updateRole(
  app: FastifyInstance,
  auth: Actor,
  id: string,
  input: RoleInput,
): Promise<Role> {
  const existing = await visibleRoleOr404(app, auth, id);
  if (existing.isSystem || existing.organizationId === null) throw forbidden(messages.roles.systemReadOnly);
  const organizationId = existing.organizationId;
  const grants = resolveGrants(await listFeatureRows(app.db), input.permissions);
  assertHeld(auth, grants);
  try {
    await app.db.transaction(async (tx) => {
      if (!(await lockRole(tx, id))) throw notFound(messages.roles.roleNotFound);
      await assertManagesHolders(tx, auth, id);
      if (await findRoleNamed(tx, input.name, organizationId, id)) throw conflict(messages.roles.nameTaken);
      await renameRole(tx, id, input.name);
      await replaceRolePermissions(tx, id, grants);
      await recordActivity(tx, {
        organizationId,
        actorUserId: auth.userId,
        action: 'updated',
        entityType: 'role',
        entityId: id,
        message:
          existing.name === input.name
            ? `Role "${input.name}" updated`
            : `Role "${existing.name}" renamed to "${input.name}" and updated`,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(messages.roles.nameTaken);
    throw error;
  }
  return getRole(app, auth, id);
}

export async function deleteRole(app: FastifyInstance, auth: Actor, id: string): Promise<void> {
  const existing = await visibleRoleOr404(app, auth, id);
  if (existing.isSystem || existing.organizationId === null) throw forbidden(messages.roles.systemReadOnly);
  const organizationId = existing.organizationId;
  const holders = async () => (await countRoleUsers(app.db, [id], null)).get(id) ?? 0;
  try {
    await app.db.transaction(async (tx) => {
      if (!(await lockRole(tx, id))) throw notFound(messages.roles.roleNotFound);
      const n = (await countRoleUsers(tx, [id], null)).get(id) ?? 0;
      if (n > 0) throw conflict(roleInUse(n));
      await deleteRoleRow(tx, id);
      await recordActivity(tx, {
        organizationId,
        actorUserId: auth.userId,
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
  app: FastifyInstance,
  auth: Actor,
  id: string,
  required: boolean,
): Promise<Role> {
  if (!meets(auth, REQUIREMENTS.requireTwoFactor)) throw forbidden(messages.twoFactor.onlyPlatformRequires);
  const existing = await visibleRoleOr404(app, auth, id);
  if (existing.organizationId === null && existing.name === SYSTEM_ROLES.superAdmin) {
    throw forbidden(messages.twoFactor.superAdminAlwaysRequired);
  }
  if (existing.requireTwoFactor !== required) {
    await app.db.transaction(async (tx) => {
      await setRoleRequiresTwoFactor(tx, id, required);
      await recordActivity(tx, {
        organizationId: existing.organizationId ?? auth.organizationId,
        actorUserId: auth.userId,
        action: 'updated',
        entityType: 'role',
        entityId: id,
        message: `Role "${existing.name}": two-factor sign-in ${required ? 'required' : 'no longer required'}`,
      });
    });
  }
  return getRole(app, auth, id);
}
