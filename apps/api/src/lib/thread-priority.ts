import { readlink } from 'node:fs';
import { setPriority } from 'node:os';

/** The niceness given to libuv's threadpool threads (0 is normal, 19 the lowest priority). */
export const THREADPOOL_NICENESS = 10;

/** The thread id of whichever threadpool thread runs this `readlink` (Linux `/proc/thread-self`). */
function threadpoolThreadId(): Promise<number | null> {
  return new Promise((resolve) => {
    readlink('/proc/thread-self', (error, link) => {
      const tid = error ? NaN : Number(link.split('/').pop());
      resolve(Number.isInteger(tid) && tid !== process.pid ? tid : null);
    });
  });
}

/**
 * Lowers the CPU priority of libuv's threadpool, where Argon2id hashes and verifies run, below the
 * main thread's (which answers every request) and the database's. A flood of sign-ins then uses
 * the CPU that requests leave idle instead of taking turns with them: with every core hashing, a
 * page of the user list otherwise waits behind a queue of hashes (docs/decisions/007). On an
 * idle machine nothing changes, hashes run at full speed. Niceness orders threads only within the
 * kernel's scheduling group (a session or a cgroup), so it does not put hashes behind PostgreSQL's
 * processes: `answeringOtherRequest` in lib/passwords.ts makes room for those.
 *
 * Linux only (elsewhere a no-op). The threadpool's threads are found by asking `/proc/thread-self`
 * from inside them: an async `fs.readlink` runs on a threadpool thread, and a burst of them lands on
 * every thread. Other threadpool work (file system, DNS lookups, zlib) shares the lower priority.
 */
export async function lowerThreadpoolPriority(niceness = THREADPOOL_NICENESS): Promise<number> {
  if (process.platform !== 'linux') return 0;
  const size = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  const found = new Set<number>();
  // Usually the first burst reaches every thread; on a busy machine one may not wake in time, or be
  // busy with other work: more bursts, a millisecond apart, for up to a second, find it.
  const giveUpAt = Date.now() + 1_000;
  for (let round = 0; found.size < size && (round === 0 || Date.now() < giveUpAt); round++) {
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const ids = await Promise.all(Array.from({ length: size * 4 }, threadpoolThreadId));
    for (const id of ids) if (id !== null) found.add(id);
  }
  let lowered = 0;
  for (const id of found) {
    try {
      setPriority(id, niceness);
      lowered++;
    } catch {
      // Not permitted here (a restricted container): requests share the CPU with hashing as before.
    }
  }
  return lowered;
}
