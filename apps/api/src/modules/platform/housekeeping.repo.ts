import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** Reclaims replaced row versions and refreshes the planner's statistics of every table. */
export async function vacuumAnalyze(db: Db) {
  await db.execute(sql`vacuum analyze`);
}
