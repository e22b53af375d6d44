import { messages } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { AppError, conflict, unprocessable } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import type { Actor, SystemActor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { hashRequest } from './idempotency-key.js';
import {
  completeClaim,
  deleteKeysCreatedBefore,
  findKey,
  insertClaim,
  releaseClaim,
  takeOverStaleClaim,
  type IdempotencyRow,
} from './idempotency.repo.js';

/**
 * An in_progress key older than this is taken to be abandoned (its request crashed or was cut off)
 * and may be claimed by a retry with the same body. A real request finishes in well under a second.
 */
export const IDEMPOTENCY_STALE_MS = 5 * 60_000;

export interface IdempotentAnswer<T> {
  status: number;
  body: T;
  /** Work to do once the transaction committed (deliver an email); its failure does not undo the answer. */
  afterCommit?: () => Promise<void>;
}

export interface IdempotentResult<T> {
  status: number;
  body: T;
  replayed: boolean;
}

function replay<T>(row: IdempotencyRow): IdempotentResult<T> {
  return { status: row.responseStatus ?? 200, body: row.responseBody as T, replayed: true };
}

export interface IdempotentWork<T> {
  /** The Idempotency-Key header; null (an optional header absent) runs the work in a transaction. */
  key: string | null;
  /** The route the key is bound to, with the validated body (`payload`). */
  route: string;
  payload: unknown;
  /** The change, handed deps on its transaction. */
  work: (deps: Deps) => Promise<IdempotentAnswer<T>>;
}

/**
 * Runs `work` in one transaction at most once per (actor, key):
 * - the first request inserts an in_progress row in its own statement (so every concurrent request
 *   sees it), runs the work, and stores its answer in the same transaction as the work;
 * - a retry with the same key and body gets the stored answer (same status and body) and changes nothing;
 * - the same key with another body or route → 422; while the first still runs → 409;
 * - if the work fails, nothing was committed and the key is freed, so the retry runs it again.
 */
export async function runIdempotent<T>(
  deps: Deps,
  actor: Actor,
  input: IdempotentWork<T>,
): Promise<IdempotentResult<T>> {
  const { key, route, work } = input;
  const userId = actor.userId;
  if (key === null) {
    const answer = await deps.db.transaction((tx) => work(withDb(deps, tx)));
    await runAfterCommit(deps, answer);
    return { status: answer.status, body: answer.body, replayed: false };
  }

  const requestHash = hashRequest(route, input.payload);
  const claim = randomToken(16);
  let earlier: IdempotencyRow | null;
  try {
    earlier = await claimKey(deps.db, { userId, key, route, requestHash, claim });
  } catch (error) {
    // A database failure (connection cut) may come after the claim's insert committed: free it, or
    // the client's retry would meet an in_progress key until it goes stale (test/faults.test.ts).
    if (!(error instanceof AppError)) await releaseQuietly(deps, userId, key, claim);
    throw error;
  }
  if (earlier) return replay<T>(earlier);

  let answer: IdempotentAnswer<T>;
  try {
    answer = await deps.db.transaction(async (tx) => {
      const result = await work(withDb(deps, tx));
      const stored = await completeClaim(tx, userId, key, claim, {
        status: result.status,
        body: result.body,
      });
      // Another request took the key over as stale: roll this one back, it will answer.
      if (!stored) throw conflict(messages.idempotency.inProgress);
      return result;
    });
  } catch (error) {
    await releaseQuietly(deps, userId, key, claim);
    throw error;
  }
  await runAfterCommit(deps, answer);
  return { status: answer.status, body: answer.body, replayed: false };
}

async function releaseQuietly(deps: Deps, userId: string, key: string, claim: string) {
  await releaseClaim(deps.db, userId, key, claim).catch((releaseError: unknown) => {
    deps.log.warn({ err: releaseError, key }, 'could not free an idempotency key; it expires as stale');
  });
}

/** Returns the earlier completed row to replay, or null when this request now owns the key. */
async function claimKey(
  db: Db,
  row: { userId: string; key: string; route: string; requestHash: string; claim: string },
): Promise<IdempotencyRow | null> {
  // A few rounds at most: the key can be freed (failed attempt) between our insert and our read.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await insertClaim(db, row)) return null;
    const existing = await findKey(db, row.userId, row.key);
    if (!existing) continue;
    if (existing.route !== row.route || existing.requestHash !== row.requestHash) {
      throw unprocessable(messages.idempotency.keyReused);
    }
    if (existing.status === 'completed') return existing;
    if (await takeOverStaleClaim(db, row.userId, row.key, row.requestHash, row.claim, IDEMPOTENCY_STALE_MS)) {
      return null;
    }
    const latest = await findKey(db, row.userId, row.key);
    if (latest?.status === 'completed') return latest;
    throw conflict(messages.idempotency.inProgress);
  }
  throw conflict(messages.idempotency.inProgress);
}

async function runAfterCommit(deps: Deps, answer: IdempotentAnswer<unknown>) {
  if (!answer.afterCommit) return;
  try {
    await answer.afterCommit();
  } catch (error) {
    deps.log.warn({ err: error }, 'post-commit step failed');
  }
}

/**
 * How long an Idempotency-Key answers its retries: a day, as payment APIs keep theirs. A retry later
 * than that runs as a new request.
 */
export const KEEP_IDEMPOTENCY_KEYS_MS = 24 * 3_600_000;

/** Housekeeping: deletes keys past their day. */
export function pruneIdempotencyKeys(deps: Deps, _actor: SystemActor, input: { now: Date }): Promise<number> {
  return deleteKeysCreatedBefore(deps.db, new Date(input.now.getTime() - KEEP_IDEMPOTENCY_KEYS_MS));
}
