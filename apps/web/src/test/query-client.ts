import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from '../lib/query-client';

/**
 * The app's query client (lib/query-client.ts) with retries off: a refused or failed call fails its
 * query at once rather than after the app's backoff.
 */
export function createTestQueryClient(): QueryClient {
  const client = createQueryClient();
  const defaults = client.getDefaultOptions();
  client.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retry: false } });
  return client;
}
