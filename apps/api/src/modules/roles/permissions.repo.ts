import { asc, eq, inArray } from 'drizzle-orm';
import { normalizeScopes, type PermissionEntry, type Scope } from '@portal/shared';
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

/** Sets a role's grants to exactly `grants` (one row per feature; features without scopes are left out). */
export async function replaceRolePermissions(
  db: Db,
  roleId: string,
  grants: readonly { featureId: string; scopes: readonly Scope[] }[],
): Promise<void> {
  await db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  const rows = grants
    .filter((g) => g.scopes.length > 0)
    .map((g) => ({ roleId, featureId: g.featureId, scopes: [...g.scopes] }));
  if (rows.length > 0) await db.insert(rolePermissions).values(rows);
}
