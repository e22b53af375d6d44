import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { knownDevices } from '../../db/schema/index.js';

/**
 * Remembers a browser for a user in one statement: 'known' when it signed in before, 'new' when it
 * is new and the user has signed in elsewhere, 'first' for the user's first browser (which mails
 * nobody: it is the one the account was set up in).
 */
export async function rememberDevice(db: Db, userId: string, deviceHash: string) {
  const { rows } = await db.execute<{ inserted: number; before: number }>(sql`
    with inserted as (
      insert into ${knownDevices} (user_id, device_hash) values (${userId}, ${deviceHash})
      on conflict do nothing returning 1
    )
    select (select count(*) from inserted)::int as inserted,
      (select count(*) from ${knownDevices} where user_id = ${userId})::int as before`);
  const row = rows[0]!;
  if (Number(row.inserted) === 0) return 'known' as const;
  return Number(row.before) === 0 ? ('first' as const) : ('new' as const);
}
