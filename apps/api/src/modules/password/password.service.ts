import { isStrongPassword, messages } from '@portal/shared';
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { recordOwnAccountChange } from '../../core/activity-log.repo.js';
import { countHit } from '../../core/rate-limits.repo.js';
import { clearSignInFailures } from '../../core/sign-in-failures.repo.js';
import { endOtherSessions } from '../sessions/index.js';
import { findPasswordHash, setPasswordHash } from './password.repo.js';

/**
 * Requests per user and window. Each costs an Argon2 verification, and a stolen session must not be
 * able to guess the current password through this route. The web client replays a request once
 * after a 401 (having refreshed the session), so a wrong password costs two: this allows 10 tries by hand.
 */
export const PASSWORD_CHANGE_LIMIT = 20;
export const PASSWORD_CHANGE_WINDOW_MS = 15 * 60_000;

export interface PasswordChange {
  userId?: string | undefined;
  currentPassword: string;
  newPassword: string;
}

/**
 * Change password on the server (docs/product.md, "Sign-in and passwords"): current password checked
 * (401), then new ≠ current, then the strength rule (400 each). Success ends the user's other
 * sessions (this one stays signed in) and forgets failed sign-ins to the account.
 */
export async function changePassword(deps: Deps, actor: Actor, change: PasswordChange) {
  if (change.userId !== undefined && change.userId !== actor.userId) throw forbidden();
  const hits = await countHit(deps.db, `password-change:user:${actor.userId}`, PASSWORD_CHANGE_WINDOW_MS);
  if (hits > PASSWORD_CHANGE_LIMIT) throw tooManyRequests(messages.password.tooManyAttempts);

  const user = await findPasswordHash(deps.db, actor.userId);
  if (!user) throw unauthorized();
  if (!(await deps.hasher.verify(user.passwordHash, change.currentPassword))) {
    throw unauthorized(messages.password.currentIncorrect);
  }
  if (change.newPassword === change.currentPassword) throw badRequest(messages.password.sameAsCurrent);
  if (!isStrongPassword(change.newPassword)) throw badRequest(messages.password.weak);

  const passwordHash = await deps.hasher.hash(change.newPassword);
  await deps.db.transaction(async (tx) => {
    await setPasswordHash(tx, actor.userId, passwordHash);
    await endOtherSessions(withDb(deps, tx), actor);
    // Whoever failed with the old password or its codes no longer has it.
    await clearSignInFailures(tx, actor.userId);
    await recordOwnAccountChange(
      tx,
      { organizationId: user.organizationId, userId: actor.userId },
      'Changed the password',
    );
  });
}
