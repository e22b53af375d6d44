import { and, eq, isNull } from 'drizzle-orm';
import { SYSTEM_ROLES } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { roles } from '../../db/schema/index.js';

/** The id of the admin system role, which onboarded users get by default. */
export async function findAdminRoleId(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.name, SYSTEM_ROLES.admin), eq(roles.isSystem, true), isNull(roles.organizationId)))
    .limit(1);
  return row?.id ?? null;
}
