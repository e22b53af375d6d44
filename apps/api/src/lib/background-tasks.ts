import type { FastifyBaseLogger } from 'fastify';

export interface BackgroundTasks {
  /** Runs `task` after the current request has been answered; a failure is logged, never thrown. */
  run(name: string, task: () => Promise<void>): void;
  /** Resolves once every task started so far has settled (shutdown, tests). */
  idle(): Promise<void>;
}

/**
 * Work a request starts but must not wait for, such as forgot-password's token and email: its
 * answer then takes the same time whatever the work turns out to be. In-process: a task in flight
 * when the process dies is lost, so only work the user can simply ask for again belongs here.
 */
export function createBackgroundTasks(log: FastifyBaseLogger): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(name, task) {
      const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((error: unknown) => log.error({ err: error, task: name }, 'background task failed'))
        .finally(() => running.delete(done));
      running.add(done);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
