import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startContenders, type Contender, type Contenders } from '../../test/contender-processes.js';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

const hasProc = existsSync('/proc/self/stat');

/** Field 22 of /proc/<pid>/stat, read here on its own so the test checks the lock's reading of it. */
function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[19]!;
}
const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

let dataDir: string;
let lockFile: string;
const children: ChildProcess[] = [];
const contenderGroups: Contenders[] = [];

/** A live process that is not a portal, as a pid reused after a crash would be. */
async function unrelatedProcess(): Promise<number> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  return child.pid!;
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'portal-lock-'));
  lockFile = join(dataDir, 'portal.lock');
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const group of contenderGroups.splice(0)) await group.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Another process (test/lock-contender.ts) that locks the folder and keeps it until it exits. */
async function holderOf(folder: string): Promise<Contender> {
  const group = await startContenders(1);
  contenderGroups.push(group);
  const holder = group.all[0]!;
  expect(await holder.order({ lock: folder })).toMatchObject({ outcome: 'won' });
  return holder;
}

describe('the data folder lock', () => {
  it('names this process in the lock file, and the unlock function removes the file', () => {
    const unlock = lockDataDir(dataDir);
    const owner = JSON.parse(readFileSync(lockFile, 'utf8'));
    expect(owner.pid).toBe(process.pid);
    if (hasProc)
      expect(owner).toEqual({ pid: process.pid, startTime: startTimeOf(process.pid), bootId: bootId() });
    unlock();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('takes over the lock of a pid no process has any more', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    const [code] = await once(gone, 'exit');
    expect(code).toBe(0);
    writeFileSync(lockFile, JSON.stringify({ pid: gone.pid, startTime: '1', bootId: 'x' }));
    lockDataDir(dataDir)();
  });

  it.runIf(hasProc)(
    'takes over the lock of a live process that started after the owner did (a pid reused after a crash)',
    async () => {
      const pid = await unrelatedProcess();
      const ownersStart = String(Number(startTimeOf(pid)) - 1);
      writeFileSync(lockFile, JSON.stringify({ pid, startTime: ownersStart, bootId: bootId() }));
      const unlock = lockDataDir(dataDir);
      expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
      unlock();
    },
  );

  it.runIf(hasProc)('takes over the lock of a pid the owner had in an earlier boot', async () => {
    const pid = await unrelatedProcess();
    writeFileSync(lockFile, JSON.stringify({ pid, startTime: startTimeOf(pid), bootId: 'an-earlier-boot' }));
    lockDataDir(dataDir)();
  });

  it('refuses the lock of a live process with its own start time and boot', async () => {
    const pid = await unrelatedProcess();
    const owner = hasProc ? { pid, startTime: startTimeOf(pid), bootId: bootId() } : { pid };
    writeFileSync(lockFile, JSON.stringify(owner));
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dataDir)).toThrow(`is in use by another portal process (pid ${pid})`);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toEqual(owner);
  });

  describe('a lock file from before start times were kept (a pid alone)', () => {
    it('is held while that pid is a node process', async () => {
      const node = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
      children.push(node);
      await once(node, 'spawn');
      writeFileSync(lockFile, String(node.pid));
      expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    });

    it.runIf(hasProc)('is taken over when that pid is now another program', async () => {
      writeFileSync(lockFile, String(await unrelatedProcess()));
      lockDataDir(dataDir)();
    });
  });

  describe('held by the kernel while its owner runs (docs/decisions/029)', () => {
    it('refuses a folder another live process holds, even when its record says that process is gone', async () => {
      const holder = await holderOf(dataDir);
      // A record this process cannot check, as from another pid namespace (a second container).
      const record = JSON.stringify({ pid: holder.pid, startTime: '1', bootId: 'another-namespace' });
      writeFileSync(lockFile, record);
      expect(() => lockDataDir(dataDir)).toThrow(`is in use by another portal process (pid ${holder.pid})`);
      expect(readFileSync(lockFile, 'utf8')).toBe(record);
    });

    it('gives the folder to the next process once its holder is killed with SIGKILL', async () => {
      const holder = await holderOf(dataDir);
      expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
      const exited = once(holder.child, 'exit');
      holder.child.kill('SIGKILL');
      await exited;
      // The killed holder's record is still there; the kernel dropped its lock with the process.
      expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(holder.pid);
      const unlock = lockDataDir(dataDir);
      expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
      unlock();
    });

    it('refuses a second lock of the same folder in this process', () => {
      const unlock = lockDataDir(dataDir);
      expect(() => lockDataDir(dataDir)).toThrow(`is in use by another portal process (pid ${process.pid})`);
      unlock();
      lockDataDir(dataDir)();
    });

    it('unlocking leaves a lock file that is no longer its own', () => {
      const unlock = lockDataDir(dataDir);
      rmSync(lockFile);
      writeFileSync(lockFile, 'another lock');
      unlock();
      expect(readFileSync(lockFile, 'utf8')).toBe('another lock');
    });
  });
});
