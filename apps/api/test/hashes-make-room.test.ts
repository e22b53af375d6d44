import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CONCURRENT_HASHES,
  DEFAULT_HASH_COST,
  hashesAllowedNow,
  HASHES_BESIDE_REQUESTS,
  QUIET_BEFORE_EVERY_CORE_MS,
} from '../src/lib/passwords.js';
import { createTestApp, watchVerifications, type TestContext } from './harness.js';

// Production cost: an unknown account's sign-in verifies against the hasher's own dummy hash, and at
// 19 MiB each verification lasts long enough for the sign-ins sent together to overlap.
let ctx: TestContext;
let base: URL;
beforeAll(async () => {
  ctx = await createTestApp({}, { hashCost: DEFAULT_HASH_COST });
  base = new URL(await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(() => ctx.close());
afterEach(() => vi.restoreAllMocks());

/** The most Argon2id verifications that ran at once while `count` sign-ins were answered together. */
async function verificationsAtOnce(count: number): Promise<number> {
  const watch = watchVerifications();
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/auth-session/login',
        payload: { identifier: `nobody-${i}@portal.test`, password: 'Wrong-Passw0rd!' },
      }),
    ),
  );
  expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 401));
  return watch.mostAtOnce();
}

/** A request whose body never finishes arriving: in flight until the socket is destroyed. */
async function heldOpen(method: 'POST' | 'PUT', path: string): Promise<Socket> {
  const socket = connect(Number(base.port), base.hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: ${base.host}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"email":`,
  );
  return socket;
}

describe.skipIf(CONCURRENT_HASHES < 2)('password hashes and other requests', () => {
  it('sign-ins alone hash on every core', async () => {
    expect(await verificationsAtOnce(CONCURRENT_HASHES * 3)).toBe(CONCURRENT_HASHES);
  });

  it('leave a core to a request in flight, and take it back once the request is gone', async () => {
    const page = await heldOpen('POST', '/api/auth/forgot-password');
    await vi.waitFor(() => expect(hashesAllowedNow()).toBe(HASHES_BESIDE_REQUESTS));
    expect(await verificationsAtOnce(CONCURRENT_HASHES * 3)).toBe(HASHES_BESIDE_REQUESTS);

    // The client goes away without an answer: the request no longer counts.
    page.destroy();
    await vi.waitFor(() => expect(hashesAllowedNow()).toBe(CONCURRENT_HASHES));
  });

  it('make no room for a sign-in, a password reset or a password change in flight', async () => {
    for (const [method, path] of [
      ['POST', '/api/auth/auth-session/login'],
      ['POST', '/api/auth/reset-password'],
      ['PUT', '/api/auth/users/password'],
    ] as const) {
      const request = await heldOpen(method, path);
      // A request that counts, held open after it: once the room is made, this one's headers have
      // been read too. When the counted one is gone, the room must go, while this one is in flight.
      const page = await heldOpen('POST', '/api/auth/forgot-password');
      await vi.waitFor(() => expect(hashesAllowedNow()).toBe(HASHES_BESIDE_REQUESTS));
      page.destroy();
      await vi.waitFor(() => expect(hashesAllowedNow()).toBe(CONCURRENT_HASHES));
      await new Promise((resolve) => setTimeout(resolve, QUIET_BEFORE_EVERY_CORE_MS * 2));
      expect(hashesAllowedNow()).toBe(CONCURRENT_HASHES);
      request.destroy();
    }
  });
});
