import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rateLimitBuckets } from '../../db/schema/index.js';

/**
 * Counts a hit in a fixed window kept in the database, so every API process shares the count.
 * Returns the count including this hit.
 */
export async function countHit(db: Db, key: string, windowMs: number): Promise<number> {
  const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
  const [row] = await db
    .insert(rateLimitBuckets)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        count: sql`case when ${rateLimitBuckets.windowStart} = ${windowStart} then ${rateLimitBuckets.count} + 1 else 1 end`,
        windowStart,
      },
    })
    .returning({ count: rateLimitBuckets.count });
  return row?.count ?? 1;
}
