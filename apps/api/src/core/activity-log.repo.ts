import type { Db } from '../db/client.js';
import { activityEntries } from '../db/schema/index.js';

export interface ActivityInput {
  organizationId: string;
  actorUserId: string | null;
  action: 'created' | 'updated' | 'deleted' | 'other';
  entityType: string;
  entityId?: string | null;
  message: string;
}

/** Every change made through the API writes one entry; call it inside the change's transaction. */
export async function recordActivity(db: Db, entry: ActivityInput): Promise<void> {
  await db.insert(activityEntries).values({ ...entry, entityId: entry.entityId ?? null });
}

/** Several entries in one statement (a batch of changes, such as an import's users); none for none. */
export async function recordActivities(db: Db, entries: readonly ActivityInput[]): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insert(activityEntries)
    .values(entries.map((entry) => ({ ...entry, entityId: entry.entityId ?? null })));
}

/** A user's change to their own account (profile, password, second factor): they act on themselves. */
export async function recordOwnAccountChange(
  db: Db,
  user: { organizationId: string; userId: string },
  message: string,
): Promise<void> {
  await recordActivity(db, {
    organizationId: user.organizationId,
    actorUserId: user.userId,
    action: 'updated',
    entityType: 'user',
    entityId: user.userId,
    message,
  });
}
