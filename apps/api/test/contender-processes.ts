import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const apiRoot = fileURLToPath(new URL('..', import.meta.url));
const nodeModules = dirname(
  dirname(createRequire(import.meta.url).resolve('fs-native-extensions/package.json')),
);

/** What a test asks of a contender (lock-contender.ts). */
export interface LockOrder {
  lock: string;
  /** A FIFO to wait at before locking, until the test opens it for writing; without it, lock at once. */
  gate?: string;
}

export interface LockAttempt {
  outcome: 'won' | 'refused' | 'failed';
  message?: string;
  /** process.hrtime.bigint() (the system's monotonic clock, shared by processes) as text. */
  startedAt: string;
  finishedAt: string;
}

export type LockReport = { armed: true } | LockAttempt;

export interface Contender {
  child: ChildProcess;
  pid: number;
  /** Sends one order and resolves with the contender's next report. */
  order(order: LockOrder): Promise<LockReport>;
  /** The contender's next report (an armed contender's attempt, once its gate opens). */
  nextReport(): Promise<LockReport>;
}

export interface Contenders {
  all: Contender[];
  /** Kills every contender still running, waits until each has exited, and removes their build. */
  stop(): Promise<void>;
}

/**
 * lock-contender.ts and the modules it imports, transpiled to JavaScript under `folder` in the same
 * layout, its packages reached through a link to node_modules: node starts it in a fifth of the CPU
 * time tsx takes, which counts with 100 processes on two cores.
 */
function buildContender(folder: string): string {
  const pending = ['test/lock-contender.ts'];
  const built = new Set<string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (built.has(file)) continue;
    built.add(file);
    const { outputText } = ts.transpileModule(readFileSync(join(apiRoot, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    // The imports left in the output: type-only ones are gone with the types.
    for (const { fileName } of ts.preProcessFile(outputText).importedFiles)
      if (fileName.startsWith('.')) pending.push(join(dirname(file), fileName.replace(/\.js$/, '.ts')));
    mkdirSync(join(folder, dirname(file)), { recursive: true });
    writeFileSync(join(folder, file.replace(/\.ts$/, '.js')), outputText);
  }
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }');
  symlinkSync(nodeModules, join(folder, 'node_modules'));
  return join(folder, 'test/lock-contender.js');
}

/**
 * Starts `count` contender processes, each its own OS process with its own pid; resolves once all
 * listen. Call stop() in afterAll/afterEach: a failed expectation must not leave them running.
 */
export async function startContenders(count: number): Promise<Contenders> {
  const folder = mkdtempSync(join(tmpdir(), 'portal-lock-contender-'));
  const all: Contender[] = [];
  const stop = async () => {
    await Promise.all(all.map(({ child }) => kill(child)));
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const entry = buildContender(folder);
    for (let i = 0; i < count; i++) all.push(await startContender(entry));
    return { all, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startContender(entry: string): Promise<Contender> {
  // Its whole environment: nothing from the caller's shell.
  const child = spawn(process.execPath, [entry], { env: {}, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await Promise.race([once(child, 'spawn'), exited]);
  const nextReport = async () => {
    const first = await Promise.race([
      once(child, 'message').then(([report]) => ({ report: report as LockReport })),
      exited.then(([code, signal]) => ({ code, signal })),
    ]);
    if ('report' in first) return first.report;
    throw new Error(`contender ${child.pid} exited (${first.signal ?? first.code}) before it reported`);
  };
  return {
    child,
    pid: child.pid!,
    nextReport,
    order: (order) => {
      const report = nextReport();
      child.send(order);
      return report;
    },
  };
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** A gate for armed contenders: a FIFO, which they block opening to read (`{ lock, gate }`). */
export function makeGate(path: string): void {
  execFileSync('mkfifo', [path]);
}

/**
 * Opens the gate for writing, which wakes every contender blocked at it in one system call; one
 * that arrives later passes at once while it stays open. Returns the function that closes it.
 */
export async function openGate(path: string): Promise<() => void> {
  // Armed contenders enter open() microseconds after they report: give the last ones time to get there.
  await sleep(20);
  const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  return () => closeSync(writer);
}
