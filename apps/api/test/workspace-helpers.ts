import { FEATURES, type FeatureKey, type Scope } from '@portal/shared';
import { rolePermissions, roles, subscriptions } from '../src/db/schema/index.js';
import {
  createOrganizationDirect,
  createUserDirect,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  type Session,
  type TestContext,
} from './harness.js';

/** A subscription row for an organization, ACTIVE and valid for a month unless told otherwise. */
export async function addSubscriptionDirect(
  ctx: TestContext,
  organizationId: string,
  options: { validUntil?: Date; status?: string } = {},
): Promise<string> {
  const [row] = await ctx.database.db
    .insert(subscriptions)
    .values({
      organizationId,
      subscribedProducts: ['AI_INTERVIEW_BOT'],
      totalInterviewCredits: 10,
      interviewCreditsPricePaise: 10_000,
      taxRateBp: 1800,
      subTotalPaise: 100_000,
      totalAmountPaise: 100_000,
      taxAmountPaise: 18_000,
      grandTotalAmountPaise: 118_000,
      validFrom: new Date(Date.now() - 86_400_000),
      validUntil: options.validUntil ?? new Date(Date.now() + 30 * 86_400_000),
      status: options.status ?? 'ACTIVE',
    })
    .returning({ id: subscriptions.id });
  return row!.id;
}

/** A custom role of one organization with exactly the given scopes. */
export async function createRoleDirect(
  ctx: TestContext,
  organizationId: string,
  name: string,
  grants: Partial<Record<FeatureKey, Scope[]>>,
): Promise<string> {
  const [role] = await ctx.database.db
    .insert(roles)
    .values({ organizationId, name, isSystem: false })
    .returning({ id: roles.id });
  const rows = Object.entries(grants).map(([key, scopes]) => ({
    roleId: role!.id,
    featureId: FEATURES[key as FeatureKey].id,
    scopes: scopes!,
  }));
  if (rows.length > 0) await ctx.database.db.insert(rolePermissions).values(rows);
  return role!.id;
}

export interface Tenant {
  organizationId: string;
  userId: string;
  email: string;
  session: Session;
}

/** An organization with one signed-in user of the admin role (or `roleId`), optionally subscribed. */
export async function createTenant(
  ctx: TestContext,
  name: string,
  options: { subscribed?: boolean; roleId?: string; organizationId?: string } = {},
): Promise<Tenant> {
  const organizationId = options.organizationId ?? (await createOrganizationDirect(ctx, name));
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const email = `${slug}@example.com`;
  const userId = await createUserDirect(ctx, {
    email,
    username: slug,
    roleId: options.roleId ?? (await roleIdByName(ctx)),
    organizationId,
  });
  if (options.subscribed ?? true) await addSubscriptionDirect(ctx, organizationId);
  const session = await signIn(ctx.app, email, STRONG_PASSWORD);
  return { organizationId, userId, email, session };
}
