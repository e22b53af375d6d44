import { storageKeys, type User } from '@portal/shared';

/**
 * Profile edits need an active subscription, as `isSubscription` says (the signed-in
 * user, else local storage). The server refuses them too; this only spares a doomed request.
 */
export function hasActiveSubscription(user: Pick<User, 'isSubscription'> | null | undefined): boolean {
  if (user) return user.isSubscription;
  return localStorage.getItem(storageKeys.isSubscription) === 'true';
}
