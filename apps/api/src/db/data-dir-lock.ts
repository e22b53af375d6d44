import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as KernelLocks from 'fs-native-extensions';
import { isHeld, parseOwner, thisProcessRecord, type Owner } from './lock-owner.js';

/** How long a refused process waits for the holder's record to name it (the holder writes it just after locking). */
const HOLDER_RECORD_WAIT_MS = 500;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

let kernelLocks: typeof KernelLocks | undefined;
/** The native addon loads on first use: a portal on PostgreSQL (DATABASE_URL) never needs it. */
function tryLock(fd: number): boolean {
  kernelLocks ??= createRequire(import.meta.url)('fs-native-extensions') as typeof KernelLocks;
  return kernelLocks.tryLock(fd);
}

function readOwner(path: string): Owner | undefined {
  try {
    return parseOwner(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Whether `path` still names the file open as `fd` (a holder's unlock removes it, and the next one is new). */
function isStillAt(fd: number, path: string): boolean {
  const open = fstatSync(fd);
  const there = statSync(path, { throwIfNoEntry: false });
  return there !== undefined && there.ino === open.ino && there.dev === open.dev;
}

/** Another open file holds the kernel lock: refuse, naming the pid its record gives once it is written. */
function refuse(dataDir: string, path: string): never {
  const deadline = Date.now() + HOLDER_RECORD_WAIT_MS;
  const namesHolder = (owner: Owner | undefined) => owner && (owner.pid === process.pid || isHeld(owner));
  let owner = readOwner(path);
  while (!namesHolder(owner) && Date.now() < deadline) {
    Atomics.wait(sleeper, 0, 0, 5);
    owner = readOwner(path);
  }
  throw new DataDirLockedError(dataDir, owner?.pid);
}

/**
 * PGlite is a single-process database: a second portal on the same folder would corrupt it. The
 * portal holds an exclusive kernel lock on `portal.lock` for as long as it runs (docs/decisions/029):
 * the kernel gives it to one process at a time and drops it when that process dies, so a stale lock is
 * never taken over by two. The file also names its owner (pid, start time, boot id, as JSON), for the
 * message and for portals of earlier releases, which lock by that record alone.
 * Returns the function that unlocks.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'portal.lock');
  for (let attempt = 0; attempt < 10; attempt++) {
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
    let locked = false;
    try {
      if (!tryLock(fd)) refuse(dataDir, path);
      // Its holder unlocked (and removed it) between our open and our lock: lock the file there now.
      if (!isStillAt(fd, path)) continue;
      // A live owner without the kernel lock: a portal of an earlier release, which locks by its record alone.
      const owner = parseOwner(readFileSync(fd, 'utf8'));
      if (owner && isHeld(owner)) throw new DataDirLockedError(dataDir, owner.pid);
      const record = Buffer.from(thisProcessRecord());
      writeSync(fd, record, 0, record.length, 0);
      ftruncateSync(fd, record.length);
      locked = true;
      return unlocker(fd, path);
    } finally {
      // Closing the file is what releases the kernel lock.
      if (!locked) closeSync(fd);
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function unlocker(fd: number, path: string): () => void {
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    // Removed before the lock is released, so whoever locks the old file next sees it is gone.
    if (isStillAt(fd, path)) rmSync(path, { force: true });
    closeSync(fd);
  };
}

export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number | undefined) {
    super(
      `The data folder ${dataDir} is in use by another portal process${pid ? ` (pid ${pid})` : ''}. ` +
        'Stop that process, or start this one with another DATA_DIR or with DATABASE_URL.',
    );
    this.name = 'DataDirLockedError';
  }
}
