import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import argon2, { type Algorithm } from '@node-rs/argon2';
import pLimit from 'p-limit';

export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

/**
 * `Algorithm.Argon2id`: the package declares its enum as an ambient const enum, which code compiled
 * one file at a time (isolatedModules) cannot read.
 */
const ARGON2ID = 2 as Algorithm;

/**
 * OWASP's Argon2id minimum (19 MiB, 2 passes, 1 lane). Tests pass a cheaper cost. Why the library is
 * @node-rs/argon2 (RustCrypto's argon2), 2.2 times node-argon2's speed at this cost: decision 002.
 */
export const DEFAULT_HASH_COST: HashCost = { memoryCost: 19_456, timeCost: 2 };

/**
 * How many Argon2id hashes and verifies run at once in this process: one per core, the rest queued
 * in order. Each takes its 19 MiB and about 9 ms of a core, so more at once only take turns,
 * evicting each other's memory from the caches, and hold more of libuv's four threadpool threads,
 * where file reads then wait. On 2 cores, sign-ins ÷ Argon2id verifies went from 0.77 to
 * 0.80–0.81 in three interleaved pairs (docs/decisions/008).
 */
export const CONCURRENT_HASHES = availableParallelism();
/** While other requests are being answered, hashes leave them a core (on a machine with two or more). */
export const HASHES_BESIDE_REQUESTS = Math.max(1, CONCURRENT_HASHES - 1);
/**
 * How long after the last other request hashes wait before taking every core again. Requests come in
 * streams, the next one microseconds after the answer before it: a queued hash would start in such a
 * gap and hold the core for its whole run.
 */
export const QUIET_BEFORE_EVERY_CORE_MS = 50;
/**
 * Beside other requests, each hash first rests as long as the one before it took, so hashing takes
 * at most half of the core it shares with them. A running hash fills its core and, with 19 MiB,
 * evicts the caches that requests and the database's processes use on the other: with one hash
 * straight after another, the user list's p99 in a sign-in flood was 2.1 times its quiet p99,
 * resting 1.6 times, at 19 sign-ins/s in place of 38 (20 ms hashes; docs/decisions/008). Longer rests
 * buy little: 9 ms hashes resting one, two or three times their length gave 1.55, 1.53 and 1.44, at
 * 25, 13 and 9.5 sign-ins/s.
 */
export const REST_PER_HASH_BESIDE_REQUESTS = 1;
const hashing = pLimit(CONCURRENT_HASHES);
let otherRequestsInFlight = 0;
let besideRequests = false;
let lastHash = { endedAt: 0, tookMs: 0 };

/** Whether hashes run beside other requests: one fewer at once, each after a rest (inTurn). */
function hashBesideRequests(beside: boolean) {
  besideRequests = beside;
  hashing.concurrency = beside ? HASHES_BESIDE_REQUESTS : CONCURRENT_HASHES;
}
// Re-armed by refresh() whenever the last other request is answered.
const takeEveryCore = setTimeout(() => {
  if (otherRequestsInFlight === 0) hashBesideRequests(false);
}, QUIET_BEFORE_EVERY_CORE_MS).unref();

/**
 * Marks a request that does not wait on a password hash as being answered, until the returned
 * function is called (once is enough; more calls do nothing). While any is, and for
 * QUIET_BEFORE_EVERY_CORE_MS after, one hash fewer runs at once and each rests before it starts, so
 * a flood of sign-ins cannot hold the CPU while pages wait: the threadpool's lower priority
 * (lib/thread-priority.ts) does not reach the database's processes. Alone, sign-ins take every core
 * without rest (docs/decisions/008).
 */
export function answeringOtherRequest(): () => void {
  if (++otherRequestsInFlight === 1) hashBesideRequests(true);
  let answered = false;
  return () => {
    if (answered) return;
    answered = true;
    if (--otherRequestsInFlight === 0) takeEveryCore.refresh();
  };
}

/** One hash or verify, in its turn: queued for a core, and rested beside other requests. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  return hashing(async () => {
    if (besideRequests) {
      const rest = lastHash.endedAt + lastHash.tookMs * REST_PER_HASH_BESIDE_REQUESTS - performance.now();
      if (rest > 0) await sleep(rest);
    }
    const startedAt = performance.now();
    try {
      return await work();
    } finally {
      const endedAt = performance.now();
      lastHash = { endedAt, tookMs: endedAt - startedAt };
    }
  });
}

/** How many hashes may run at once now. */
export const hashesAllowedNow = (): number => hashing.concurrency;

export function createPasswordHasher(cost: HashCost = DEFAULT_HASH_COST) {
  const options = { algorithm: ARGON2ID, parallelism: 1, ...cost };
  // A hash to verify against when the account is unknown, so the answer takes the same time.
  const dummy = inTurn(() => argon2.hash('not-a-real-password-0', options));
  return {
    hash: (password: string) => inTurn(() => argon2.hash(password, options)),
    verify: async (hash: string | null, password: string): Promise<boolean> => {
      const against = hash ?? (await dummy);
      try {
        const matches = await inTurn(() => argon2.verify(against, password));
        return hash !== null && matches;
      } catch {
        return false;
      }
    },
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
