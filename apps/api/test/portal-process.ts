import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverEntry = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const commandEntries = {
  'reset-two-factor': fileURLToPath(new URL('../src/cli/reset-two-factor.ts', import.meta.url)),
};

export interface PortalProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output: () => string;
  /** Its exit code; null when a signal ended it. */
  exited: Promise<number | null>;
}

const running = new Set<PortalProcess>();
// Backstop for a worker that ends without running the suite's afterEach (afterEach calls killPortals).
process.on('exit', () => {
  for (const portal of running) portal.child.kill('SIGKILL');
});

/**
 * The whole environment of a portal a test starts: what any process needs to run, the test's own
 * settings, and nothing else from the caller's shell, so an ADMIN_PASSWORD, NODE_ENV=production or
 * DATABASE_URL set there cannot change what the test sees.
 */
function hermeticEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const needed = ['PATH', 'HOME', 'TMPDIR'].filter((name) => process.env[name] !== undefined);
  return {
    ...Object.fromEntries(needed.map((name) => [name, process.env[name]])),
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    ...settings,
  };
}

/**
 * Runs the real server entry (src/server.ts) with `settings`, and resolves once it prints its address
 * or exits. Call killPortals() in afterEach: a failed expectation must not leave it running.
 */
export function startPortal(settings: Record<string, string>): Promise<PortalProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: hermeticEnv(settings),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const portal: PortalProcess = { child, output: () => text, exited };
  running.add(portal);
  void exited.then(() => running.delete(portal));
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('is running at')) resolve(portal);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => resolve(portal));
  });
}

/** Kills every portal started here that is still running, and waits until each has exited. */
export async function killPortals(): Promise<void> {
  const left = [...running];
  for (const portal of left) portal.child.kill('SIGKILL');
  await Promise.all(left.map((portal) => portal.exited));
}

/**
 * Runs one of the operator's commands (`npm run reset-two-factor`) to its end with `settings` as its
 * whole environment, as startPortal does; answers its exit code and everything it printed.
 */
export function runCommand(
  name: keyof typeof commandEntries,
  args: string[],
  settings: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', commandEntries[name], ...args], {
    env: hermeticEnv(settings),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve({ code, output }));
    child.once('error', () => resolve({ code: null, output }));
  });
}
