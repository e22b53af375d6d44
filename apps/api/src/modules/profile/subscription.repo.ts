import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations, subscriptions } from '../../db/schema/index.js';

/**
 * Whether an organization may change its profile and company details: the platform organization
 * always; a tenant while it has an ACTIVE subscription that has not run out (as `toUserDtos`
 * derives `isSubscription`).
 */
export async function organizationIsSubscribed(db: Db, organizationId: string): Promise<boolean> {
  const [org] = await db
    .select({ isPlatform: organizations.isPlatform })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  if (!org) return false;
  if (org.isPlatform) return true;
  const [active] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.organizationId, organizationId),
        eq(subscriptions.status, 'ACTIVE'),
        gt(subscriptions.validUntil, new Date()),
      ),
    )
    .limit(1);
  return active !== undefined;
}
