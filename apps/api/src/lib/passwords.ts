import argon2 from 'argon2';

export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

/** OWASP's Argon2id minimum (19 MiB, 2 passes, 1 lane). Tests pass a cheaper cost. */
export const DEFAULT_HASH_COST: HashCost = { memoryCost: 19_456, timeCost: 2 };

export function createPasswordHasher(cost: HashCost = DEFAULT_HASH_COST) {
  const options = { type: argon2.argon2id as 2, parallelism: 1, ...cost };
  // A hash to verify against when the account is unknown, so the answer takes the same time.
  const dummy = argon2.hash('not-a-real-password-0', options);
  return {
    hash: (password: string) => argon2.hash(password, options),
    verify: async (hash: string | null, password: string): Promise<boolean> => {
      try {
        const matches = await argon2.verify(hash ?? (await dummy), password);
        return hash !== null && matches;
      } catch {
        return false;
      }
    },
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
