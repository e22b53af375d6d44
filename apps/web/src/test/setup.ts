import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { keepUploadNames, resetServer, server } from './server';

// The API: a request no handler answers fails the test (MSW reports it through console.error too).
let restoreFetch = () => {};
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  restoreFetch = keepUploadNames();
});
afterAll(() => {
  restoreFetch();
  server.close();
});

// A test that logs an unexpected console.error fails (STYLE.md §8).
let errorSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error');
});
afterEach(() => {
  cleanup();
  resetServer();
  // The session a test signed in with, and what its pages stored, end with it.
  localStorage.clear();
  sessionStorage.clear();
  // A test that fakes the clock (or stubs a global, e.g. matchMedia) never leaves it so for the next one.
  vi.useRealTimers();
  vi.unstubAllGlobals();
  const calls = errorSpy.mock.calls;
  errorSpy.mockRestore();
  if (calls.length > 0)
    throw new Error(`console.error was called: ${calls.map((c: unknown[]) => c.join(' ')).join('\n')}`);
});
