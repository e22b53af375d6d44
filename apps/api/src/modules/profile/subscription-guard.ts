import { messages } from '@portal/shared';
import { forbidden } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { organizationIsSubscribed } from './subscription.repo.js';

/** The three variants of the 'subscription has expired' message, one per kind of change. */
export type SubscriptionGuardedChange = 'profile' | 'profileImage' | 'company';

const expiredMessage: Record<SubscriptionGuardedChange, string> = {
  profile: messages.profile.subscriptionExpired,
  profileImage: messages.profile.subscriptionExpiredImage,
  company: messages.profile.subscriptionExpiredCompany,
};

/**
 * Profile and company edits need an active subscription. The client reads `isSubscription`; the
 * server is the authority. super_admin (platform organization) is never blocked. 403 otherwise.
 */
export async function requireActiveSubscription(
  deps: Deps,
  actor: Actor,
  input: { organizationId: string; change: SubscriptionGuardedChange },
): Promise<void> {
  if (actor.isSuperAdmin) return;
  if (!(await organizationIsSubscribed(deps.db, input.organizationId))) {
    throw forbidden(expiredMessage[input.change]);
  }
}
