import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema/index.js';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/**
 * While a request runs, `response_body` holds `{claim}`: a random token naming the request that owns
 * the key, so only that request can complete or release it (a taken-over stale claim cannot).
 */
interface ClaimBody {
  claim: string;
}

/** Inserts the in_progress row in its own statement; null when the key already exists. */
export async function insertClaim(
  db: Db,
  row: { userId: string; key: string; route: string; requestHash: string; claim: string },
): Promise<IdempotencyRow | null> {
  const [inserted] = await db
    .insert(idempotencyKeys)
    .values({
      userId: row.userId,
      key: row.key,
      route: row.route,
      requestHash: row.requestHash,
      status: 'in_progress',
      responseBody: { claim: row.claim } satisfies ClaimBody,
    })
    .onConflictDoNothing()
    .returning();
  return inserted ?? null;
}

export async function findKey(db: Db, userId: string, key: string): Promise<IdempotencyRow | null> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row ?? null;
}

/**
 * Takes over an in_progress row older than `staleMs` (its request crashed or was cut off). On
 * PostgreSQL the row lock makes one of several concurrent takers win; the others re-check the
 * (now fresh) created_at and get nothing.
 */
export async function takeOverStaleClaim(
  db: Db,
  userId: string,
  key: string,
  requestHash: string,
  claim: string,
  staleMs: number,
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ createdAt: sql`now()`, responseBody: { claim } satisfies ClaimBody })
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.requestHash, requestHash),
        eq(idempotencyKeys.status, 'in_progress'),
        lt(
          idempotencyKeys.createdAt,
          sql`now() - ${`${Math.max(0, Math.floor(staleMs))} milliseconds`}::interval`,
        ),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

const ownedBy = (userId: string, key: string, claim: string) =>
  and(
    eq(idempotencyKeys.userId, userId),
    eq(idempotencyKeys.key, key),
    eq(idempotencyKeys.status, 'in_progress'),
    sql`${idempotencyKeys.responseBody}->>'claim' = ${claim}`,
  );

/** Stores the answer, inside the transaction of the change it answers; false when the claim was lost. */
export async function completeClaim(
  db: Db,
  userId: string,
  key: string,
  claim: string,
  response: { status: number; body: unknown },
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({
      status: 'completed',
      responseStatus: response.status,
      responseBody: response.body,
      completedAt: sql`now()`,
    })
    .where(ownedBy(userId, key, claim))
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

/** Frees the key after a failed attempt (nothing was committed), so the same request may be retried. */
export async function releaseClaim(db: Db, userId: string, key: string, claim: string): Promise<void> {
  await db.delete(idempotencyKeys).where(ownedBy(userId, key, claim));
}

/** Deletes keys created before `before`; returns how many went. */
export async function deleteKeysCreatedBefore(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
