import { pendingUserDataSchema, storageKeys, type PendingUserData } from '@portal/shared';

/**
 * `pendingUserData` in session storage: what the subscription screen needs to create the user. No
 * password: the invited user sets one through the emailed link.
 */
export function savePendingUserData(data: PendingUserData): void {
  sessionStorage.setItem(storageKeys.pendingUserData, JSON.stringify(pendingUserDataSchema.parse(data)));
}

export function readPendingUserData(): PendingUserData | null {
  const raw = sessionStorage.getItem(storageKeys.pendingUserData);
  if (!raw) return null;
  try {
    const parsed = pendingUserDataSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
