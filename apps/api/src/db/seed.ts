import { randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import {
  ADMIN_ROLE_PERMISSIONS,
  FEATURES,
  SCOPES,
  SYSTEM_ROLES,
  isStrongPassword,
  type FeatureKey,
} from '@portal/shared';
import type { Db } from './client.js';
import { features, organizations, rolePermissions, roles, users } from './schema/index.js';
import type { PasswordHasher } from '../lib/passwords.js';

export const DEFAULT_ADMIN_EMAIL = 'superadmin@portal.local';
const PLATFORM_ORG_NAME = 'Platform';

export interface SeedResult {
  adminEmail: string;
  /** Only when this start created the super administrator with a generated password. */
  generatedPassword?: string;
  created: boolean;
}

/** A 20-character password that meets the shared strength rule. */
export function generatePassword(): string {
  const pools = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!@#$%^&*-_+='];
  const all = pools.join('');
  const chars = pools.map((p) => p[randomInt(p.length)]!);
  while (chars.length < 20) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  const password = chars.join('');
  return isStrongPassword(password) ? password : generatePassword();
}

async function ensureSystemRole(
  tx: Db,
  name: string,
  grants: Partial<Record<FeatureKey, readonly string[]>>,
) {
  const [existing] = await tx
    .select()
    .from(roles)
    .where(and(eq(roles.name, name), isNull(roles.organizationId)));
  if (existing) return existing.id;
  const [role] = await tx.insert(roles).values({ name, isSystem: true }).returning({ id: roles.id });
  const rows = Object.entries(grants).map(([key, scopes]) => ({
    roleId: role!.id,
    featureId: FEATURES[key as FeatureKey].id,
    scopes: [...scopes!],
  }));
  if (rows.length > 0) await tx.insert(rolePermissions).values(rows);
  return role!.id;
}

/**
 * First start: features, system roles, the platform organization and one super administrator.
 * Every step checks before it inserts, so a restart seeds nothing twice.
 */
export async function seed(
  db: Db,
  hasher: PasswordHasher,
  admin: { email?: string | undefined; password?: string | undefined },
): Promise<SeedResult> {
  const adminEmail = (admin.email ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  const generatedPassword = admin.password ? undefined : generatePassword();
  const passwordHash = await hasher.hash(admin.password ?? generatedPassword!);

  return db.transaction(async (tx) => {
    const featureRows = Object.values(FEATURES).map((f, index) => ({ ...f, sortOrder: index }));
    await tx.insert(features).values(featureRows).onConflictDoNothing();

    const allScopes = Object.fromEntries(Object.keys(FEATURES).map((k) => [k, SCOPES]));
    const superRoleId = await ensureSystemRole(tx, SYSTEM_ROLES.superAdmin, allScopes);
    await ensureSystemRole(tx, SYSTEM_ROLES.admin, ADMIN_ROLE_PERMISSIONS);

    let [platform] = await tx.select().from(organizations).where(eq(organizations.isPlatform, true));
    if (!platform) {
      [platform] = await tx
        .insert(organizations)
        .values({ name: PLATFORM_ORG_NAME, isPlatform: true })
        .returning();
    }
    const [existingSuper] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.roleId, superRoleId))
      .limit(1);
    if (existingSuper) return { adminEmail, created: false };

    await tx.insert(users).values({
      organizationId: platform!.id,
      roleId: superRoleId,
      username: adminEmail
        .split('@')[0]!
        .replace(/[^A-Za-z0-9._-]/g, '')
        .slice(0, 50)
        .padEnd(3, '0'),
      email: adminEmail,
      fullName: 'Super Administrator',
      client: PLATFORM_ORG_NAME,
      isAdmin: true,
      passwordHash,
      passwordChangedAt: new Date(),
    });
    return { adminEmail, generatedPassword, created: true };
  });
}
