import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_HASH_COST } from '../../test/harness.js';
import { CONCURRENT_HASHES, createPasswordHasher } from './passwords.js';

describe('password hasher', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs no more Argon2id verifies at once than there are cores, and answers each one', async () => {
    const hasher = createPasswordHasher(TEST_HASH_COST);
    const hash = await hasher.hash('Right-Passw0rd!');
    const verify = argon2.verify.bind(argon2);
    let running = 0;
    let most = 0;
    vi.spyOn(argon2, 'verify').mockImplementation(async (...args) => {
      most = Math.max(most, ++running);
      try {
        return await verify(...args);
      } finally {
        running--;
      }
    });
    const passwords = Array.from({ length: CONCURRENT_HASHES * 3 }, (_, i) =>
      i % 2 ? 'Right-Passw0rd!' : 'Wrong-Passw0rd!',
    );
    const answers = await Promise.all(passwords.map((p) => hasher.verify(hash, p)));
    expect(answers).toEqual(passwords.map((p) => p === 'Right-Passw0rd!'));
    expect(most).toBe(CONCURRENT_HASHES);
  });

  it('verifies an unknown account against a real hash and refuses it', async () => {
    const hasher = createPasswordHasher(TEST_HASH_COST);
    const verify = vi.spyOn(argon2, 'verify');
    expect(await hasher.verify(null, 'not-a-real-password-0')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
