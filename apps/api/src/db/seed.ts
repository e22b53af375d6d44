import { randomInt } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { SYSTEM_ROLES, isStrongPassword } from '@portal/shared';
import type { Db } from './client.js';
import { organizations, roles, users } from './schema/index.js';
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

/**
 * First start: the platform organization and one super administrator. The features and the system
 * roles come from migrations (0006), so that an upgrade brings their changes too. Every step checks
 * before it inserts, under a lock, so neither a restart nor processes starting together seed twice.
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
    // Processes starting at once on an empty PostgreSQL seed one at a time: the later ones find it done.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('interview-credits-portal seed'))`);
    const [superRole] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.name, SYSTEM_ROLES.superAdmin), isNull(roles.organizationId)));
    if (!superRole) throw new Error('The super_admin role is missing: run the migrations before the seed.');
    const superRoleId = superRole.id;

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
