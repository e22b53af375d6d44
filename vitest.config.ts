import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Unit and API suites of every workspace; `scripts/test.sh` runs them (API twice: PGlite, PostgreSQL). */
export default defineConfig({
  test: {
    projects: [
      'packages/shared',
      'apps/web',
      'apps/api',
      'bench',
      // Checks of the repository itself: the import lines lint draws (test/lint-zones.test.ts).
      { test: { name: 'repo', include: ['test/**/*.test.ts'], testTimeout: 60_000 } },
    ],
    // Vitest leaves a core to itself by default; the suites mostly wait on databases and processes.
    maxWorkers: availableParallelism(),
  },
});
