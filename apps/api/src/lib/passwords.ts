import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import pLimit from 'p-limit';

export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

/** OWASP's Argon2id minimum (19 MiB, 2 passes, 1 lane). Tests pass a cheaper cost. */
export const DEFAULT_HASH_COST: HashCost = { memoryCost: 19_456, timeCost: 2 };

/**
 * How many Argon2id hashes and verifies run at once in this process: one per core, the rest queued
 * in order. Each takes its 19 MiB and tens of milliseconds of a core, so more at once only take
 * turns, evicting each other's memory from the caches, and hold more of libuv's four threadpool
 * threads, where file reads then wait. On 2 cores, sign-ins ÷ Argon2id verifies went from 0.77 to
 * 0.80–0.81 in three interleaved pairs (docs/decisions/008).
 */
export const CONCURRENT_HASHES = availableParallelism();
const hashing = pLimit(CONCURRENT_HASHES);

export function createPasswordHasher(cost: HashCost = DEFAULT_HASH_COST) {
  const options = { type: argon2.argon2id as 2, parallelism: 1, ...cost };
  // A hash to verify against when the account is unknown, so the answer takes the same time.
  const dummy = hashing(() => argon2.hash('not-a-real-password-0', options));
  return {
    hash: (password: string) => hashing(() => argon2.hash(password, options)),
    verify: async (hash: string | null, password: string): Promise<boolean> => {
      const against = hash ?? (await dummy);
      try {
        const matches = await hashing(() => argon2.verify(against, password));
        return hash !== null && matches;
      } catch {
        return false;
      }
    },
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
