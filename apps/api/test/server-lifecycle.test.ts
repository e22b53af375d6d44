import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const serverEntry = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'portal-lifecycle-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs the real server entry (embedded mode) and resolves once it prints its address, or exits. */
function startServer(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('is running at')) resolve({ child, output: () => text, exited });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => resolve({ child, output: () => text, exited }));
  });
}

// Embedded mode only: the PostgreSQL pass has nothing to add here.
describe.skipIf(process.env.TEST_DATABASE === 'postgres')('the portal process on embedded PGlite', () => {
  it('seeds once, refuses a second process on the same data folder, stops cleanly on SIGTERM and restarts', async () => {
    const first = await startServer({ ADMIN_EMAIL: 'boss@portal.test', ADMIN_PASSWORD: 'Boss-Passw0rd!' });
    expect(first.output()).toContain('Super administrator: boss@portal.test');
    expect(first.output()).toContain('Password: the value of ADMIN_PASSWORD');
    expect(existsSync(join(dataDir, 'portal.lock'))).toBe(true);

    const second = await startServer({});
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another portal process');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'portal.lock'))).toBe(false);

    // A restart seeds nothing twice: the same administrator, no new password printed.
    const again = await startServer({});
    expect(again.output()).toContain('is running at');
    expect(again.output()).not.toContain('shown once');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 120_000);

  it('prints a generated strong password once when none is configured', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'portal-fresh-'));
    try {
      const run = await startServer({ DATA_DIR: fresh });
      const match = /Password \(shown once, change it after signing in\): (\S+)/.exec(run.output());
      expect(match?.[1]).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[^A-Za-z0-9]).{20}$/);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 120_000);
});
