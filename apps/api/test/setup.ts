import { afterEach, beforeEach, vi } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** A test's measured figures, kept in the JSON report (.test-reports) instead of printed. */
    figures?: Record<string, number>;
  }
}

// A test that logs an unexpected console.error fails (STYLE.md §8).
let errorSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error');
});
afterEach(() => {
  // A test that fakes the clock never leaves it faked for the next one.
  vi.useRealTimers();
  const calls = errorSpy.mock.calls;
  errorSpy.mockRestore();
  if (calls.length > 0)
    throw new Error(`console.error was called: ${calls.map((c: unknown[]) => c.join(' ')).join('\n')}`);
});
