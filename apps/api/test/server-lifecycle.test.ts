import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killPortals, startPortal } from './portal-process.js';
import { usePostgres } from './test-database.js';

const folders: string[] = [];
/** A data folder of its own, removed after the test once its portals are gone. */
function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'portal-lifecycle-'));
  folders.push(folder);
  return folder;
}
afterEach(async () => {
  await killPortals();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// Embedded mode only: the PostgreSQL pass has nothing to add here.
describe.skipIf(usePostgres)('the portal process on embedded PGlite', () => {
  it('seeds once, refuses a second process on the same data folder, stops cleanly on SIGTERM and restarts', async () => {
    const DATA_DIR = dataFolder();
    const first = await startPortal({
      DATA_DIR,
      ADMIN_EMAIL: 'boss@portal.test',
      ADMIN_PASSWORD: 'Boss-Passw0rd!',
    });
    expect(first.output()).toContain('Super administrator: boss@portal.test');
    expect(first.output()).toContain('Password: the value of ADMIN_PASSWORD');
    expect(existsSync(join(DATA_DIR, 'portal.lock'))).toBe(true);

    const second = await startPortal({ DATA_DIR });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another portal process');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(DATA_DIR, 'portal.lock'))).toBe(false);

    // A restart seeds nothing twice: the same administrator, no new password printed.
    const again = await startPortal({ DATA_DIR });
    expect(again.output()).toContain('is running at');
    expect(again.output()).not.toContain('shown once');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 120_000);

  it('prints a generated strong password once when none is configured', async () => {
    const run = await startPortal({ DATA_DIR: dataFolder() });
    const match = /Password \(shown once, change it after signing in\): (\S+)/.exec(run.output());
    expect(match?.[1]).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[^A-Za-z0-9]).{20}$/);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 120_000);
});
