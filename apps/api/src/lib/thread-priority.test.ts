import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lowerThreadpoolPriority, THREADPOOL_NICENESS } from './thread-priority.js';

/** Niceness of each thread of this process (field 19 of /proc/self/task/<tid>/stat). */
function threadNiceness(): Map<number, number> {
  const byThread = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byThread.set(Number(tid), Number(fields[16]));
  }
  return byThread;
}

describe.runIf(process.platform === 'linux')('lowerThreadpoolPriority', () => {
  it('lowers every libuv threadpool thread and leaves the main thread as it was', async () => {
    const mainBefore = getPriority(process.pid);
    const lowered = await lowerThreadpoolPriority();
    expect(lowered).toBe(Number(process.env.UV_THREADPOOL_SIZE) || 4);
    const niceness = threadNiceness();
    expect([...niceness.values()].filter((n) => n === THREADPOOL_NICENESS)).toHaveLength(lowered);
    expect(niceness.get(process.pid)).toBe(mainBefore);
    // Calling it again (a second app in the process) changes nothing.
    expect(await lowerThreadpoolPriority()).toBe(lowered);
    expect([...threadNiceness().values()].filter((n) => n === THREADPOOL_NICENESS)).toHaveLength(lowered);
  });
});
