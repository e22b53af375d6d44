import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/**
 * CPU work off the event loop (piscina): a task names its worker module, so one pool serves every
 * module. A tax document's PDF is about 2 ms of CPU; rendered on the event loop, four clients
 * downloading PDFs raised the list's p99 3.7 to 5.6 times on PostgreSQL (docs/decisions/020).
 * The threads start with the first task and leave after a minute without one.
 */
export interface WorkerPool {
  run<Out>(worker: URL, input: unknown): Promise<Out>;
  close(): Promise<void>;
}

export function createWorkerPool(): WorkerPool {
  let pool: Piscina | null = null;
  return {
    async run<Out>(worker: URL, input: unknown) {
      pool ??= new Piscina({
        // The event loop keeps a core of its own.
        maxThreads: Math.max(1, availableParallelism() - 1),
        idleTimeout: 60_000,
      });
      return (await pool.run(input, { filename: worker.href })) as Out;
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}
