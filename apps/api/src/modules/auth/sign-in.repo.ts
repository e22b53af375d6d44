import { and, eq, gt, like, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rateLimitBuckets, users } from '../../db/schema/index.js';
import { identityVersionOf, identityVersionSql } from '../../lib/identity-cache.js';
import { countHit } from '../platform/rate-limit.repo.js';
import { userDtoColumns, type UserDtoRow } from '../users/user-dto.repo.js';

export interface SignInCandidate extends UserDtoRow {
  passwordHash: string | null;
  /** Failed sign-ins to this account from this address in the open lock window. */
  failuresFromAddress: number;
  /** The identity version read with the row, for building the answer from the identity cache. */
  version: number;
}

export interface SignInAttempt {
  /** Sign-in attempts from the client's address in the current window, this one included. */
  hits: number;
  candidate: SignInCandidate | null;
}

/**
 * The rate-limit key of failed sign-ins to one account (a user id, or the identifier when it names
 * none) from one address. Keyed by address, so a stranger's failures lock out only the stranger
 * (docs/decisions/010-sign-in-lock-per-address.md).
 */
const FAILURE_KEY_PREFIX = 'signin-lock:';
function failureKey(subject: string, address: string): string {
  return `${FAILURE_KEY_PREFIX}${subject}:${address}`;
}

/**
 * Counts the attempt against its address's limit, then reads the account an identifier (email or
 * username, lower-cased) names, with what sign-in checks and what its answer shows, and its failed
 * attempts from this address: a successful sign-in reads the user once.
 */
export async function recordSignInAttempt(
  db: Db,
  identifier: string,
  address: string,
  windows: { addressKey: string; addressWindowMs: number; lockWindowMs: number },
): Promise<SignInAttempt> {
  const hits = await countHit(db, windows.addressKey, windows.addressWindowMs);
  const lockOpenedAfter = new Date(Date.now() - windows.lockWindowMs);
  const [row] = await db
    .select({
      version: identityVersionSql,
      ...userDtoColumns,
      passwordHash: users.passwordHash,
      failures: rateLimitBuckets.count,
    })
    .from(users)
    .leftJoin(
      rateLimitBuckets,
      and(
        eq(rateLimitBuckets.key, sql`${FAILURE_KEY_PREFIX} || ${users.id} || ${`:${address}`}`),
        gt(rateLimitBuckets.windowStart, lockOpenedAfter),
      ),
    )
    .where(or(eq(sql`lower(${users.email})`, identifier), eq(sql`lower(${users.username})`, identifier)))
    .limit(1);
  if (!row) return { hits, candidate: null };
  const { version, failures, ...candidate } = row;
  return {
    hits,
    candidate: { ...candidate, failuresFromAddress: failures ?? 0, version: identityVersionOf(version) },
  };
}

/**
 * Counts a failed sign-in to `subject` (user id, or the identifier of an unknown account: the same
 * statement either way, so the two take the same time) from `address`. The window opens at the first
 * failure and does not move, so attempts while locked do not extend the lock.
 */
export async function recordSignInFailure(db: Db, subject: string, address: string, windowMs: number) {
  await countHit(db, failureKey(subject, address), windowMs);
}

/** Forgets failed sign-ins to a user: from one address (after a success there), or from all. */
export async function clearSignInFailures(db: Db, userId: string, address?: string) {
  await db
    .delete(rateLimitBuckets)
    .where(
      address
        ? eq(rateLimitBuckets.key, failureKey(userId, address))
        : like(rateLimitBuckets.key, failureKey(userId, '%')),
    );
}
