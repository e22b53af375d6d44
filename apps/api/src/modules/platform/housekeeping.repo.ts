import { and, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  idempotencyKeys,
  rateLimitBuckets,
  sessions,
  storedFiles,
  supportTickets,
  users,
} from '../../db/schema/index.js';

const DAY_MS = 24 * 3_600_000;

/**
 * How long an Idempotency-Key answers its retries: a day, as payment APIs keep theirs. A retry later
 * than that runs as a new request. A rate-limit window is dropped a day after it opened, far longer
 * than any window (15 minutes).
 */
export const KEEP_IDEMPOTENCY_KEYS_MS = DAY_MS;
export const KEEP_RATE_LIMIT_WINDOWS_MS = DAY_MS;
/**
 * An upload is stored before the transaction that refers to it (docs/decisions/022); a process that
 * died in between leaves a file nothing refers to. After a day it is surely not still being linked.
 */
export const KEEP_UNREFERENCED_FILES_MS = DAY_MS;

/**
 * Deletes rows no request can use any more, so these tables do not grow for ever: rate-limit windows
 * long closed, idempotency keys past their day, sessions whose refresh token has expired (neither
 * of their tokens is accepted; a replay of one is refused as unknown), and uploads a day old that
 * nothing refers to. Safe to run from several processes at once. Returns how many rows of each went.
 */
export async function pruneExpired(db: Db, now: Date) {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const [windows, keys, ended, orphans] = await Promise.all([
    db
      .delete(rateLimitBuckets)
      .where(lt(rateLimitBuckets.windowStart, before(KEEP_RATE_LIMIT_WINDOWS_MS)))
      .returning({ key: rateLimitBuckets.key }),
    db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, before(KEEP_IDEMPOTENCY_KEYS_MS)))
      .returning({ key: idempotencyKeys.key }),
    db.delete(sessions).where(lt(sessions.refreshExpiresAt, now)).returning({ id: sessions.id }),
    db
      .delete(storedFiles)
      .where(
        and(
          lt(storedFiles.createdAt, before(KEEP_UNREFERENCED_FILES_MS)),
          sql`not exists (select 1 from ${supportTickets} t where t.file_id = ${storedFiles.id})`,
          sql`not exists (select 1 from ${users} u where u.profile_image_file_id = ${storedFiles.id})`,
        ),
      )
      .returning({ id: storedFiles.id }),
  ]);
  return {
    rateLimitWindows: windows.length,
    idempotencyKeys: keys.length,
    sessions: ended.length,
    unreferencedFiles: orphans.length,
  };
}

/** Reclaims replaced row versions and refreshes the planner's statistics of every table. */
export async function vacuumAnalyze(db: Db) {
  await db.execute(sql`vacuum analyze`);
}
