import { QueryClient } from '@tanstack/react-query';
import { CACHE_LIFETIME_MS, RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS } from '@portal/shared';
import { ApiError } from './api-client';

/** 5-minute cache; retry backoff 1 s doubling up to 30 s. Client errors are not retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: CACHE_LIFETIME_MS,
        gcTime: CACHE_LIFETIME_MS,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status !== null && error.status < 500) return false;
          return failureCount < 3;
        },
        retryDelay: (attempt) => Math.min(RETRY_BASE_DELAY_MS * 2 ** attempt, RETRY_MAX_DELAY_MS),
      },
      mutations: { retry: false },
    },
  });
}
