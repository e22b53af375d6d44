import { lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rateLimitBuckets } from '../db/schema/index.js';

/**
 * The statement that counts a hit on `key` and returns the count including it, for `countHit` and
 * for statements that count a hit along with their own work (sign-in, in one round trip). The window
 * opens at the key's first hit and lasts `windowMs`; a window aligned to the clock would reset every
 * key at the same instant, letting a burst straddle the boundary with twice the limit.
 */
export function hitStatement(key: string, windowMs: number): SQL {
  const now = new Date();
  const openedAfter = new Date(now.getTime() - windowMs).toISOString();
  return sql`
    insert into rate_limit_buckets as b (key, window_start, count) values (${key}, ${now.toISOString()}, 1)
    on conflict (key) do update set
      count = case when b.window_start > ${openedAfter} then b.count + 1 else 1 end,
      window_start = case when b.window_start > ${openedAfter} then b.window_start else excluded.window_start end
    returning count`;
}

/**
 * Counts a hit in a window kept in the database, so every API process shares the count, and returns
 * the count including this hit.
 */
export async function countHit(db: Db, key: string, windowMs: number): Promise<number> {
  const { rows } = await db.execute<{ count: number }>(hitStatement(key, windowMs));
  return rows[0]?.count ?? 1;
}

/** The hits on `key` in its open window, without counting one. */
export async function countInWindow(db: Db, key: string, windowMs: number): Promise<number> {
  const openedAfter = new Date(Date.now() - windowMs).toISOString();
  const { rows } = await db.execute<{ count: number }>(
    sql`select count from rate_limit_buckets where key = ${key} and window_start > ${openedAfter}`,
  );
  return rows[0]?.count ?? 0;
}

/** A window is dropped a day after it opened, far longer than any window (15 minutes). */
export const KEEP_RATE_LIMIT_WINDOWS_MS = 24 * 3_600_000;

/** Deletes windows long closed (housekeeping); returns how many went. */
export async function pruneRateLimitWindows(db: Db, now: Date): Promise<number> {
  const rows = await db
    .delete(rateLimitBuckets)
    .where(lt(rateLimitBuckets.windowStart, new Date(now.getTime() - KEEP_RATE_LIMIT_WINDOWS_MS)))
    .returning({ key: rateLimitBuckets.key });
  return rows.length;
}
