import { eq } from 'drizzle-orm';
import type { Scope } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { rolePermissions } from '../../db/schema/index.js';

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
