import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER, messages } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, conflict, unprocessable } from '../../lib/errors.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import {
  completeClaim,
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
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header: printable ASCII, 1 to 255 characters. */
export function readIdempotencyKey(request: FastifyRequest, required: true): string;
export function readIdempotencyKey(request: FastifyRequest, required: boolean): string | null;
export function readIdempotencyKey(request: FastifyRequest, required: boolean): string | null {
  const raw = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') {
    if (required) throw badRequest(messages.idempotency.keyRequired);
    return null;
  }
  if (!KEY_PATTERN.test(value)) throw badRequest(messages.idempotency.keyRequired);
  return value;
}

/** JSON with object keys sorted, so the same body always hashes the same. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What a key is bound to: the route and the validated body. */
export function hashRequest(route: string, payload: unknown): string {
  return sha256Hex(stableStringify({ route, payload }));
}

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

/**
 * Runs `work` in one transaction at most once per (user, key):
 * - the first request inserts an in_progress row in its own statement (so every concurrent request
 *   sees it), runs the work, and stores its answer in the same transaction as the work;
 * - a retry with the same key and body gets the stored answer (same status and body) and changes nothing;
 * - the same key with another body or route → 422; while the first still runs → 409;
 * - if the work fails, nothing was committed and the key is freed, so the retry runs it again.
 * With `key` null (optional header absent) the work simply runs in a transaction.
 */
export async function runIdempotent<T>(
  app: FastifyInstance,
  guard: { userId: string; key: string | null; route: string; payload: unknown },
  work: (tx: Db) => Promise<IdempotentAnswer<T>>,
): Promise<IdempotentResult<T>> {
  const { userId, key, route } = guard;
  if (key === null) {
    const answer = await app.db.transaction(work);
    await runAfterCommit(app, answer);
    return { status: answer.status, body: answer.body, replayed: false };
  }

  const requestHash = hashRequest(route, guard.payload);
  const claim = randomToken(16);
  let earlier: IdempotencyRow | null;
  try {
    earlier = await claimKey(app.db, { userId, key, route, requestHash, claim });
  } catch (error) {
    // A database failure (connection cut) may come after the claim's insert committed: free it, or
    // the client's retry would meet an in_progress key until it goes stale (test/faults.test.ts).
    if (!(error instanceof AppError)) await releaseQuietly(app, userId, key, claim);
    throw error;
  }
  if (earlier) return replay<T>(earlier);

  let answer: IdempotentAnswer<T>;
  try {
    answer = await app.db.transaction(async (tx) => {
      const result = await work(tx);
      const stored = await completeClaim(tx, userId, key, claim, {
        status: result.status,
        body: result.body,
      });
      // Another request took the key over as stale: roll this one back, it will answer.
      if (!stored) throw conflict(messages.idempotency.inProgress);
      return result;
    });
  } catch (error) {
    await releaseQuietly(app, userId, key, claim);
    throw error;
  }
  await runAfterCommit(app, answer);
  return { status: answer.status, body: answer.body, replayed: false };
}

async function releaseQuietly(app: FastifyInstance, userId: string, key: string, claim: string) {
  await releaseClaim(app.db, userId, key, claim).catch((releaseError: unknown) => {
    app.log.warn({ err: releaseError, key }, 'could not free an idempotency key; it expires as stale');
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

async function runAfterCommit(app: FastifyInstance, answer: IdempotentAnswer<unknown>) {
  if (!answer.afterCommit) return;
  try {
    await answer.afterCommit();
  } catch (error) {
    app.log.warn({ err: error }, 'post-commit step failed');
  }
}
