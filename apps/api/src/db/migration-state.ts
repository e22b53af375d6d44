import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';
import { migrationsFolder } from './client.js';

let shipped: number | undefined;

/** How many migrations this release ships (drizzle's journal beside them). */
export function shippedMigrationCount(): number {
  shipped ??= (
    JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    }
  ).entries.length;
  return shipped;
}

/** How many migrations the database has applied (drizzle's own table; 0 before the first). */
export async function appliedMigrationCount(db: Db): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number((result.rows[0] as { n: number }).n);
}
