import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { idempotencyKeys, rateLimitBuckets, sessions } from '../../db/schema/index.js';

const DAY_MS = 24 * 3_600_000;

/**
 * How long an Idempotency-Key answers its retries: a day, as payment APIs keep theirs. A retry later
 * than that runs as a new request. A rate-limit window is dropped a day after it opened, far longer
 * than any window (15 minutes).
 */
export const KEEP_IDEMPOTENCY_KEYS_MS = DAY_MS;
export const KEEP_RATE_LIMIT_WINDOWS_MS = DAY_MS;

/**
 * Deletes rows no request can use any more, so these tables do not grow for ever: rate-limit windows
 * long closed, idempotency keys past their day, and sessions whose refresh token has expired (neither
 * of their tokens is accepted; a replay of one is refused as unknown). Safe to run from several
 * processes at once. Returns how many rows of each went.
 */
export async function pruneExpired(db: Db, now: Date) {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const [windows, keys, ended] = await Promise.all([
    db
      .delete(rateLimitBuckets)
      .where(lt(rateLimitBuckets.windowStart, before(KEEP_RATE_LIMIT_WINDOWS_MS)))
      .returning({ key: rateLimitBuckets.key }),
    db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, before(KEEP_IDEMPOTENCY_KEYS_MS)))
      .returning({ key: idempotencyKeys.key }),
    db.delete(sessions).where(lt(sessions.refreshExpiresAt, now)).returning({ id: sessions.id }),
  ]);
  return { rateLimitWindows: windows.length, idempotencyKeys: keys.length, sessions: ended.length };
}

/** Reclaims replaced row versions and refreshes the planner's statistics of every table. */
export async function vacuumAnalyze(db: Db) {
  await db.execute(sql`vacuum analyze`);
}
