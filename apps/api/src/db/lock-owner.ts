import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** Who holds the lock: a pid, and where /proc tells it, when that process started and in which boot. */
export interface Owner {
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

/** This process, as its lock file names it (JSON). */
export function thisProcessRecord(): string {
  return JSON.stringify(identify(process.pid) ?? { pid: process.pid });
}

/** The owner a lock file names, or undefined when it names none (empty or damaged: stale). */
export function parseOwner(text: string): Owner | undefined {
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
export function isHeld(owner: Owner): boolean {
  if (owner.pid === process.pid || !isRunning(owner.pid)) return false;
  if (!hasProc) return true;
  // A lock from before start times were kept names a pid only: held unless that pid is no longer node.
  if (owner.startTime === undefined) return isNodeProcess(owner.pid);
  const now = identify(owner.pid);
  return now?.startTime === owner.startTime && now.bootId === owner.bootId;
}
