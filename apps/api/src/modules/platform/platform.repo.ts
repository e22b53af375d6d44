import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** One round trip to the database: it answers, or this throws. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
