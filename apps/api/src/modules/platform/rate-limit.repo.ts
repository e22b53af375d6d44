import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rateLimitBuckets } from '../../db/schema/index.js';

/**
 * Counts a hit in a window kept in the database, so every API process shares the count. The window
 * opens at the key's first hit and lasts `windowMs`; a window aligned to the clock would reset every
 * key at the same instant, letting a burst straddle the boundary with twice the limit.
 * Returns the count including this hit.
 */
export async function countHit(db: Db, key: string, windowMs: number): Promise<number> {
  const now = new Date();
  const stillOpen = sql`${rateLimitBuckets.windowStart} > ${new Date(now.getTime() - windowMs)}`;
  const [row] = await db
    .insert(rateLimitBuckets)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        count: sql`case when ${stillOpen} then ${rateLimitBuckets.count} + 1 else 1 end`,
        windowStart: sql`case when ${stillOpen} then ${rateLimitBuckets.windowStart} else ${now} end`,
      },
    })
    .returning({ count: rateLimitBuckets.count });
  return row?.count ?? 1;
}
