import type { Db } from '../../db/client.js';
import { webhookEvents } from '../../db/schema/index.js';

/**
 * Records a provider event inside the transaction that applies it; false when it was seen before.
 * On PostgreSQL a concurrent duplicate waits on the primary key until the first commits (then does
 * nothing) or rolls back (then it applies the event itself): each event changes state once.
 */
export async function recordWebhookEvent(db: Db, id: string, eventType: string): Promise<boolean> {
  const rows = await db
    .insert(webhookEvents)
    .values({ id, eventType })
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  return rows.length === 1;
}
