import { availableParallelism } from 'node:os';
import argon2, { type Algorithm } from '@node-rs/argon2';
import pLimit from 'p-limit';
import { ServiceBusyError } from './errors.js';

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
 * Argon2id hashes and verifies run on every core but one, one per core, the rest queued in order: each
 * takes its 19 MiB and about 9 ms of a core, so more at once would only take turns and evict each
 * other's memory, and a flood of sign-ins would take every core from every other request. With more
 * than MAX_WAITING_HASHES queued, the next one is refused at once (503, Retry-After) instead of
 * waiting behind them (docs/decisions/018, 034).
 */
export const CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);
export const MAX_WAITING_HASHES = 64;
const BUSY_RETRY_AFTER_SECONDS = 2;
const limit = pLimit(CONCURRENT_HASHES);
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (limit.pendingCount >= MAX_WAITING_HASHES) throw new ServiceBusyError(BUSY_RETRY_AFTER_SECONDS);
  return limit(work);
}

export function createPasswordHasher(cost: HashCost = DEFAULT_HASH_COST) {
  const options = { algorithm: ARGON2ID, parallelism: 1, ...cost };
  // A hash to verify against when the account is unknown, so the answer takes the same time.
  const dummy = inTurn(() => argon2.hash('not-a-real-password-0', options));
  return {
    hash: async (password: string) => inTurn(() => argon2.hash(password, options)),
    verify: async (hash: string | null, password: string): Promise<boolean> => {
      const against = hash ?? (await dummy);
      // Refused as busy before the try: a shed sign-in is not a wrong password.
      const verifying = inTurn(() => argon2.verify(against, password));
      try {
        // Awaited whatever the account: an unknown one takes the same time as a known one.
        const matches = await verifying;
        return hash !== null && matches;
      } catch {
        return false;
      }
    },
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
