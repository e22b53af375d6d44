import argon2 from '@node-rs/argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_HASH_COST, watchVerifications } from '../../test/harness.js';
import {
  answeringOtherRequest,
  CONCURRENT_HASHES,
  createPasswordHasher,
  DEFAULT_HASH_COST,
  hashesAllowedNow,
  HASHES_BESIDE_REQUESTS,
  QUIET_BEFORE_EVERY_CORE_MS,
  REST_PER_HASH_BESIDE_REQUESTS,
} from './passwords.js';

const quietSpell = () => new Promise((resolve) => setTimeout(resolve, QUIET_BEFORE_EVERY_CORE_MS + 50));

/** The most verifies that ran at once while `verifications` were asked for together. */
async function mostAtOnce(verifications: number): Promise<number> {
  const hasher = createPasswordHasher(TEST_HASH_COST);
  const hash = await hasher.hash('Right-Passw0rd!');
  const watch = watchVerifications();
  await Promise.all(Array.from({ length: verifications }, () => hasher.verify(hash, 'Right-Passw0rd!')));
  vi.restoreAllMocks();
  return watch.mostAtOnce();
}

/**
 * Verifies at the production cost, one after another: for each after the first, how long after the
 * one before it ended it started, and how long the one before took (milliseconds).
 */
async function gapsBetweenVerifies(verifications: number) {
  const hasher = createPasswordHasher(DEFAULT_HASH_COST);
  const hash = await hasher.hash('Right-Passw0rd!');
  const { runs } = watchVerifications();
  for (let i = 0; i < verifications; i++) await hasher.verify(hash, 'Right-Passw0rd!');
  vi.restoreAllMocks();
  return runs
    .slice(1)
    .map((run, i) => ({ gap: run.start - runs[i]!.end, before: runs[i]!.end - runs[i]!.start }));
}

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

  it('runs one hash fewer while another request is answered, and every core again after a quiet spell', async () => {
    const answered = answeringOtherRequest();
    expect(await mostAtOnce(CONCURRENT_HASHES * 3)).toBe(HASHES_BESIDE_REQUESTS);
    answered();
    // Not at once: the next request of a stream comes microseconds after the answer before it.
    expect(hashesAllowedNow()).toBe(HASHES_BESIDE_REQUESTS);
    await quietSpell();
    expect(hashesAllowedNow()).toBe(CONCURRENT_HASHES);
    expect(await mostAtOnce(CONCURRENT_HASHES * 3)).toBe(CONCURRENT_HASHES);
  });

  it('keeps the room while any other request is in flight, however often one is marked answered', async () => {
    const first = answeringOtherRequest();
    const second = answeringOtherRequest();
    first();
    first();
    await quietSpell();
    expect(hashesAllowedNow()).toBe(HASHES_BESIDE_REQUESTS);
    second();
    await quietSpell();
    expect(hashesAllowedNow()).toBe(CONCURRENT_HASHES);
  });

  it('beside another request, rests before each hash as long as the one before it took; alone, not at all', async () => {
    const answered = answeringOtherRequest();
    const beside = await gapsBetweenVerifies(4);
    answered();
    await quietSpell();
    const alone = await gapsBetweenVerifies(4);
    // A timer may fire up to a millisecond early; a verification at this cost takes about ten.
    for (const { gap, before } of beside)
      expect(gap).toBeGreaterThan(before * REST_PER_HASH_BESIDE_REQUESTS - 1);
    for (const { gap, before } of alone) expect(gap).toBeLessThan(before / 2);
  });
});
