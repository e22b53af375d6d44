import type { Db } from '../../db/client.js';
import { activityEntries } from '../../db/schema/index.js';

export interface ActivityInput {
  organizationId: string;
  actorUserId: string | null;
  action: 'created' | 'updated' | 'deleted' | 'other';
  entityType: string;
  entityId?: string | null;
  message: string;
}

/** Every change made through the API writes one entry (DECISIONS.md); call it inside the change's transaction. */
export async function recordActivity(db: Db, entry: ActivityInput): Promise<void> {
  await db.insert(activityEntries).values({ ...entry, entityId: entry.entityId ?? null });
}
