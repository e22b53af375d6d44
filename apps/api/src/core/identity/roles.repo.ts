import { sql } from 'drizzle-orm';
import { normalizeScopes, type PermissionEntry } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { features, rolePermissions, roles } from '../../db/schema/index.js';
import { identitySnapshot, identityVersionOf, identityVersionSql, type CachedRole } from './cache.repo.js';

/**
 * Permission entries of each role, in feature order, keyed by role id (an unknown id maps to none).
 * Read with `loadRoles`, the one statement that reads roles and their permissions.
 */
export async function loadRolePermissions(
  db: Db,
  roleIds: readonly string[],
): Promise<Map<string, PermissionEntry[]>> {
  const byRole = new Map<string, PermissionEntry[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return byRole;
  const { roles: loaded } = await loadRoles(db, [...new Set(roleIds)]);
  for (const [id, role] of loaded) byRole.set(id, role.permissions);
  return byRole;
}

interface LoadedRole {
  id: string;
  name: string;
  isSystem: boolean;
  requireTwoFactor: boolean;
  permissions: { id: string; featureId: string; featureName: string; scopes: string[] }[];
}

/** Roles with their permission entries (feature order) in one statement, and the identity version read with them. */
export async function loadRoles(db: Db, roleIds: readonly string[]) {
  const {
    rows: [row],
  } = await db.execute<{ version: number | string; roles: LoadedRole[] }>(
    sql`
      select ${identityVersionSql} as version, coalesce(json_agg(json_build_object(
        'id', r.id, 'name', r.name, 'isSystem', r.is_system, 'requireTwoFactor', r.require_two_factor,
        'permissions', coalesce((
          select json_agg(json_build_object('id', rp.id, 'featureId', f.id, 'featureName', f.name, 'scopes', rp.scopes) order by f.sort_order)
          from ${rolePermissions} rp join ${features} f on f.id = rp.feature_id where rp.role_id = r.id
        ), '[]'::json)
      )), '[]'::json) as roles
      from ${roles} r where r.id = any(${sql.param([...roleIds])}::uuid[])`,
  );
  const byId = new Map<string, CachedRole>();
  for (const role of row!.roles) {
    byId.set(role.id, {
      name: role.name,
      isSystem: role.isSystem,
      requireTwoFactor: role.requireTwoFactor,
      permissions: role.permissions.map((p) => ({
        id: p.id,
        featureId: p.featureId,
        featureName: p.featureName,
        permissionScopes: normalizeScopes(p.scopes),
      })),
    });
  }
  return { version: identityVersionOf(row!.version), roles: byId };
}

/**
 * Name, system flag and permissions of each role as of identity `version`: from this process's
 * snapshot of that version, the missing ones loaded in one statement (and kept if still current).
 */
export async function rolesAt(
  db: Db,
  version: number,
  roleIds: readonly string[],
): Promise<Map<string, CachedRole>> {
  const snapshot = identitySnapshot(db, version);
  const found = new Map<string, CachedRole>();
  const missing: string[] = [];
  for (const id of new Set(roleIds)) {
    const role = snapshot.roles.get(id);
    if (role) found.set(id, role);
    else missing.push(id);
  }
  if (missing.length === 0) return found;
  const loaded = await loadRoles(db, missing);
  const keep = identitySnapshot(db, loaded.version);
  for (const [id, role] of loaded.roles) {
    keep.roles.set(id, role);
    found.set(id, role);
  }
  return found;
}
