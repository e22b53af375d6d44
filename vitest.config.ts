import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Unit and API suites of every workspace; `scripts/test.sh` runs them (API twice: PGlite, PostgreSQL). */
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/web', 'apps/api', 'bench'],
    // Vitest leaves a core to itself by default; the suites mostly wait on databases and processes.
    maxWorkers: availableParallelism(),
  },
});
