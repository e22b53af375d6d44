import { availableParallelism } from 'node:os';
import argon2 from '@node-rs/argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_HASH_COST, watchVerifications } from '../../test/harness.js';
import { ServiceBusyError } from './errors.js';
import { CONCURRENT_HASHES, createPasswordHasher, MAX_WAITING_HASHES } from './passwords.js';

describe('password hasher', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs no more Argon2id verifies at once than there are cores, and answers each one', async () => {
    const hasher = createPasswordHasher(TEST_HASH_COST);
    const hash = await hasher.hash('Right-Passw0rd!');
    const watch = watchVerifications();
    const passwords = Array.from({ length: CONCURRENT_HASHES * 3 }, (_, i) =>
      i % 2 ? 'Right-Passw0rd!' : 'Wrong-Passw0rd!',
    );
    const answers = await Promise.all(passwords.map((p) => hasher.verify(hash, p)));
    expect(answers).toEqual(passwords.map((p) => p === 'Right-Passw0rd!'));
    expect(watch.mostAtOnce()).toBe(CONCURRENT_HASHES);
  });

  it('leaves a core to other requests, and refuses a hash at once when too many wait', async () => {
    expect(CONCURRENT_HASHES).toBe(Math.max(1, availableParallelism() - 1));
    const hasher = createPasswordHasher(TEST_HASH_COST);
    const hash = await hasher.hash('Right-Passw0rd!');
    const running = CONCURRENT_HASHES + MAX_WAITING_HASHES;
    const queued = Array.from({ length: running }, () => hasher.verify(hash, 'Right-Passw0rd!'));
    // The next verify is refused as busy (not answered false, which would count as a wrong password).
    await expect(hasher.verify(hash, 'Right-Passw0rd!')).rejects.toBeInstanceOf(ServiceBusyError);
    await expect(hasher.hash('Another-Passw0rd!')).rejects.toMatchObject({ statusCode: 503 });
    expect(await Promise.all(queued)).toEqual(Array(running).fill(true));
    // Once they are done, hashes are taken again.
    expect(await hasher.verify(hash, 'Right-Passw0rd!')).toBe(true);
  });

  it("stores Argon2id at OWASP's minimum cost, in the standard encoded form", async () => {
    const hash = await createPasswordHasher().hash('Right-Passw0rd!');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  });

  it('verifies the hashes stored before the switch to @node-rs/argon2 (node-argon2 wrote p before t)', async () => {
    const stored =
      '$argon2id$v=19$m=19456,p=1,t=2$C79jKPzYgJtIAICfuCEvrg$vra34AUBxf66Trr4eh61Bq6Lsj1OzzkPHMXq4Iefc+0';
    const hasher = createPasswordHasher();
    expect(await hasher.verify(stored, 'pw-123456')).toBe(true);
    expect(await hasher.verify(stored, 'pw-1234567')).toBe(false);
  });

  it('verifies an unknown account against a real hash and refuses it', async () => {
    const hasher = createPasswordHasher(TEST_HASH_COST);
    const verify = vi.spyOn(argon2, 'verify');
    expect(await hasher.verify(null, 'not-a-real-password-0')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
