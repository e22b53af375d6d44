import { CSRF_LEGACY_COOKIE, JUST_LOGGED_IN_MS, storageKeys, type User } from '@portal/shared';
import { clearCookie } from '../../lib/cookies';

/** The browser-storage keys of SPEC.md §3, written from the signed-in user. */
export function storeUser(user: User) {
  localStorage.setItem(storageKeys.userId, user.id);
  localStorage.setItem(storageKeys.role, user.role.name);
  localStorage.setItem(storageKeys.isSubscription, String(user.isSubscription));
  localStorage.setItem(storageKeys.client, user.client ?? '');
  localStorage.setItem(
    storageKeys.featuresPermissions,
    JSON.stringify(
      user.role.permissions.map((p) => ({
        featureName: p.featureName,
        permissionScopes: p.permissionScopes,
      })),
    ),
  );
}

export function storedUserId(): string | null {
  return localStorage.getItem(storageKeys.userId);
}

export function clearStoredSession() {
  for (const key of [
    storageKeys.userId,
    storageKeys.role,
    storageKeys.isSubscription,
    storageKeys.client,
    storageKeys.featuresPermissions,
  ]) {
    localStorage.removeItem(key);
  }
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith(storageKeys.cachePrefix)) localStorage.removeItem(key);
  }
  sessionStorage.removeItem(storageKeys.pendingUserData);
  sessionStorage.removeItem(storageKeys.subscriptionData);
  clearCookie(CSRF_LEGACY_COOKIE);
}

/** `justLoggedIn` is set on sign-in and reset to false after 10 s (SPEC.md §4). */
export function markJustLoggedIn(): () => void {
  sessionStorage.setItem(storageKeys.justLoggedIn, 'true');
  const timer = setTimeout(
    () => sessionStorage.setItem(storageKeys.justLoggedIn, 'false'),
    JUST_LOGGED_IN_MS,
  );
  return () => clearTimeout(timer);
}
