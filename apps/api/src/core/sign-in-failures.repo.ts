import { eq, like } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rateLimitBuckets } from '../db/schema/index.js';
import { countHit } from './rate-limits.repo.js';

/**
 * Failed sign-ins, counted in rate-limit buckets: sign-in (auth) counts and reads them, a new
 * password (password) forgets them, so they live below both.
 *
 * The key of failed sign-ins to one account (a user id, or the identifier when it names none) from
 * one address. Keyed by address, so a stranger's failures lock out only the stranger
 * (docs/decisions/010-sign-in-lock-per-address.md).
 */
export const FAILURE_KEY_PREFIX = 'signin-lock:';
export function failureKey(subject: string, address: string): string {
  return `${FAILURE_KEY_PREFIX}${subject}:${address}`;
}

/**
 * The key of wrong second-step codes to one account from every address. The per-address lock would
 * let a thief who has the password spread code guesses over many addresses; this caps them per
 * account. Under the account's prefix, so a password reset forgets it with the rest.
 */
export function codeFailureKey(userId: string): string {
  return failureKey(userId, 'codes');
}

/**
 * Counts a failed sign-in to `subject` (user id, or the identifier of an unknown account: the same
 * statement either way, so the two take the same time) from `address`. The window opens at the first
 * failure and does not move, so attempts while locked do not extend the lock.
 */
export async function recordSignInFailure(db: Db, subject: string, address: string, windowMs: number) {
  await countHit(db, failureKey(subject, address), windowMs);
}

/**
 * Counts a refused second step: toward the account's lock from `address`, and toward its cap from all
 * addresses. Answers the account's count from all addresses, this one included.
 */
export async function recordCodeFailure(db: Db, userId: string, address: string, windowMs: number) {
  await recordSignInFailure(db, userId, address, windowMs);
  return countHit(db, codeFailureKey(userId), windowMs);
}

/**
 * Forgets failed sign-ins to a user: from one address (after a success there), or all of them, wrong
 * codes from every address included (a new password).
 */
export async function clearSignInFailures(db: Db, userId: string, address?: string) {
  await db
    .delete(rateLimitBuckets)
    .where(
      address
        ? eq(rateLimitBuckets.key, failureKey(userId, address))
        : like(rateLimitBuckets.key, failureKey(userId, '%')),
    );
}
