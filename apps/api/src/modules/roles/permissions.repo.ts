import { asc, eq, inArray } from 'drizzle-orm';
import { normalizeScopes, type PermissionEntry } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { features, rolePermissions } from '../../db/schema/index.js';

/** Permission entries of each role, in feature order, keyed by role id. */
export async function loadRolePermissions(
  db: Db,
  roleIds: readonly string[],
): Promise<Map<string, PermissionEntry[]>> {
  const byRole = new Map<string, PermissionEntry[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return byRole;
  const rows = await db
    .select({
      id: rolePermissions.id,
      roleId: rolePermissions.roleId,
      featureId: features.id,
      featureName: features.name,
      scopes: rolePermissions.scopes,
    })
    .from(rolePermissions)
    .innerJoin(features, eq(features.id, rolePermissions.featureId))
    .where(inArray(rolePermissions.roleId, [...roleIds]))
    .orderBy(asc(features.sortOrder));
  for (const row of rows) {
    byRole.get(row.roleId)?.push({
      id: row.id,
      featureId: row.featureId,
      featureName: row.featureName,
      permissionScopes: normalizeScopes(row.scopes),
    });
  }
  return byRole;
}
