import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../test/harness.js';
import { countHit } from './rate-limits.repo.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const WINDOW_MS = 15 * 60_000;
/** A clock-aligned window boundary: the instant a fixed window would have reset every key. */
const BOUNDARY = Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS;

describe('rate-limit window', () => {
  it('opens at the first hit, so hits either side of a clock boundary share one window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(BOUNDARY - 1_000);
    expect(await countHit(ctx.database.db, 'straddle', WINDOW_MS)).toBe(1);
    vi.setSystemTime(BOUNDARY + 1_000);
    expect(await countHit(ctx.database.db, 'straddle', WINDOW_MS)).toBe(2);
    expect(await countHit(ctx.database.db, 'another-key', WINDOW_MS)).toBe(1);
  });

  it('starts counting again once the window has passed since the first hit', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(BOUNDARY);
    await countHit(ctx.database.db, 'expiry', WINDOW_MS);
    vi.setSystemTime(BOUNDARY + WINDOW_MS - 1);
    expect(await countHit(ctx.database.db, 'expiry', WINDOW_MS)).toBe(2);
    vi.setSystemTime(BOUNDARY + WINDOW_MS);
    expect(await countHit(ctx.database.db, 'expiry', WINDOW_MS)).toBe(1);
    vi.setSystemTime(BOUNDARY + WINDOW_MS + 1);
    expect(await countHit(ctx.database.db, 'expiry', WINDOW_MS)).toBe(2);
  });
});
