import { availableParallelism } from 'node:os';
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
 * At most one Argon2id hash or verify per core at once, the rest queued in order: each takes its
 * 19 MiB and about 9 ms of a core, so more at once would only take turns and evict each other's
 * memory (docs/decisions/018).
 */
export const CONCURRENT_HASHES = availableParallelism();
const inTurn = pLimit(CONCURRENT_HASHES);

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
