import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killPortals, startPortal } from './portal-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'portal-production-'));
afterEach(killPortals);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('NODE_ENV=production', () => {
  it('refuses to start without PUBLIC_URL, naming it, before touching the data folder', async () => {
    const run = await startPortal({
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: 'sandbox',
      DATA_DIR: join(scratch, 'data'),
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(
      /Invalid configuration:\n\s+PUBLIC_URL is required when NODE_ENV=production/,
    );
    expect(run.output()).not.toMatch(/\n\s+at /);
    expect(existsSync(join(scratch, 'data'))).toBe(false);
  }, 60_000);

  it('refuses to take payments through the sandbox unless PAYMENT_PROVIDER=sandbox says so', async () => {
    const run = await startPortal({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://portal.example.com',
      DATA_DIR: join(scratch, 'data'),
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET are required/);
    expect(run.output()).toMatch(/PAYMENT_PROVIDER=sandbox/);
  }, 60_000);
});
