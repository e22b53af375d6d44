import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverEntry = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const commandEntries = {
  'reset-two-factor': fileURLToPath(new URL('../src/cli/reset-two-factor.ts', import.meta.url)),
  backup: fileURLToPath(new URL('../src/cli/backup.ts', import.meta.url)),
  restore: fileURLToPath(new URL('../src/cli/restore.ts', import.meta.url)),
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
 * `options.checkout` runs another checkout's server from its folder (an older release: upgrade.test.ts).
 */
export function startPortal(
  settings: Record<string, string>,
  options: { checkout?: string } = {},
): Promise<PortalProcess> {
  const entry = options.checkout ? join(options.checkout, 'apps/api/src/server.ts') : serverEntry;
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: hermeticEnv(settings),
    ...(options.checkout ? { cwd: options.checkout } : {}),
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
 * Starts one of the operator's commands (`npm run reset-two-factor`, `backup`, `restore`) with
 * `settings` as its whole environment, as startPortal does; a test may read what it prints while it
 * runs. killPortals() ends it too, should a test fail while it runs.
 */
export function startCommand(
  name: keyof typeof commandEntries,
  args: string[],
  settings: Record<string, string>,
): PortalProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', commandEntries[name], ...args], {
    env: hermeticEnv(settings),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close', not 'exit': by then everything it printed has been read.
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const command: PortalProcess = { child, output: () => output, exited };
  running.add(command);
  void exited.then(() => running.delete(command));
  return command;
}

/** Runs one of the operator's commands to its end (startCommand); answers its exit code and output. */
export async function runCommand(
  name: keyof typeof commandEntries,
  args: string[],
  settings: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const command = startCommand(name, args, settings);
  const code = await command.exited;
  return { code, output: command.output() };
}
