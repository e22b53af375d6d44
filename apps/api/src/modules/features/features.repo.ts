import { asc } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { features } from '../../db/schema/index.js';

export type FeatureRow = typeof features.$inferSelect;

/** Every feature, in the seeded order. */
export async function listFeatureRows(db: Db): Promise<FeatureRow[]> {
  return db.select().from(features).orderBy(asc(features.sortOrder), asc(features.name));
}
