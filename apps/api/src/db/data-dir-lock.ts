import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';

/** Who holds the lock: a pid, and where /proc tells it, when that process started and in which boot. */
interface Owner {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks from boot to the process's start. */
  startTime?: string;
  /** /proc/sys/kernel/random/boot_id: a new value at every boot. */
  bootId?: string;
}

const hasProc = existsSync('/proc/self/stat');

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running process `pid` as a lock records it; without /proc (macOS), its pid alone. */
function identify(pid: number): Owner | undefined {
  if (!hasProc) return { pid };
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 is the command name in parentheses, which may itself hold spaces or parentheses.
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return startTime ? { pid, startTime, bootId } : undefined;
  } catch {
    return undefined;
  }
}

function isNodeProcess(pid: number): boolean {
  try {
    const program = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return basename(program).startsWith('node') || program === process.execPath;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** The owner a lock file names, or undefined when it names none (empty or damaged: stale). */
function parseOwner(text: string): Owner | undefined {
  if (/^\d+$/.test(text.trim())) return { pid: Number(text.trim()) };
  try {
    const owner = JSON.parse(text) as Owner;
    return Number.isInteger(owner.pid) && owner.pid > 0 ? owner : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `owner` is a live process other than this one. A pid alone does not say so: after a crash
 * and a reboot or enough new processes, an unrelated process may have it. Where /proc is there, the
 * start time and boot id must match too.
 */
function isHeld(owner: Owner): boolean {
  if (owner.pid === process.pid || !isRunning(owner.pid)) return false;
  if (!hasProc) return true;
  // A lock from before start times were kept names a pid only: held unless that pid is no longer node.
  if (owner.startTime === undefined) return isNodeProcess(owner.pid);
  const now = identify(owner.pid);
  return now?.startTime === owner.startTime && now.bootId === owner.bootId;
}

/**
 * PGlite is a single-process database: a second portal on the same folder would corrupt it. The lock
 * file names its owner (pid, start time, boot id, as JSON); a stale lock (owner gone) is taken over.
 * Returns the function that unlocks.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'portal.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(identify(process.pid) ?? { pid: process.pid }));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = parseOwner(readFileSync(path, 'utf8'));
      if (owner && isHeld(owner)) throw new DataDirLockedError(dataDir, owner.pid);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The data folder ${dataDir} is in use by another portal process (pid ${pid}). ` +
        'Stop that process, or start this one with another DATA_DIR or with DATABASE_URL.',
    );
    this.name = 'DataDirLockedError';
  }
}
