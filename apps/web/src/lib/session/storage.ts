import { CSRF_LEGACY_COOKIE, JUST_LOGGED_IN_MS, storageKeys, type User } from '@portal/shared';
import { clearCookie } from '../cookies';

/** The browser-storage keys (docs/product.md, "Sign-in and passwords"), written from the signed-in user. */
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

/**
 * `justLoggedIn` is set on sign-in and reads false 10 s later. The sign-in's time is kept
 * beside it, so after a reload within those 10 s it still turns false on time, not never.
 */
export function markJustLoggedIn(now = Date.now()): () => void {
  sessionStorage.setItem(storageKeys.justLoggedIn, 'true');
  sessionStorage.setItem(storageKeys.justLoggedInAt, String(now));
  return settleJustLoggedIn(now);
}

/** Turns `justLoggedIn` false once 10 s have passed since the sign-in (now, or later); returns a cancel. */
export function settleJustLoggedIn(now = Date.now()): () => void {
  if (sessionStorage.getItem(storageKeys.justLoggedIn) !== 'true') return () => {};
  const at = Number(sessionStorage.getItem(storageKeys.justLoggedInAt));
  const left = Number.isFinite(at) && at > 0 ? at + JUST_LOGGED_IN_MS - now : 0;
  const clear = () => sessionStorage.setItem(storageKeys.justLoggedIn, 'false');
  if (left <= 0) {
    clear();
    return () => {};
  }
  const timer = setTimeout(clear, left);
  return () => clearTimeout(timer);
}
