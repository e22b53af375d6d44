import { act, screen } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { TEST_MODE_LABEL } from '../components/test-mode-badge';
import { portalConfigQuery } from '../lib/portal-config';
import { createTestQueryClient } from '../test/query-client';
import { renderAt } from '../test/render-at';
import { configHandler, sentRequests, server } from '../test/server';
import { FullScreenLoading, LoadingLayerProvider, useLoadingLayer } from './loading-layer';

function SlowPage() {
  const { setLoaderTimeout } = useLoadingLayer();
  useEffect(() => setLoaderTimeout(true), [setLoaderTimeout]);
  return null;
}

function renderWithLayer() {
  return renderAt('/', {
    element: (
      <LoadingLayerProvider>
        <SlowPage />
      </LoadingLayerProvider>
    ),
  });
}

describe('loader timeout', () => {
  it('shows the loading view, then the not-found message after 30 s', async () => {
    vi.useFakeTimers();
    await renderWithLayer();
    expect(screen.getByText('Loading...')).toBeTruthy();
    act(() => vi.advanceTimersByTime(29_000));
    expect(screen.queryByText("Oopss!! Sorry, we couldn't find the page you're looking for.")).toBeNull();
    act(() => vi.advanceTimersByTime(1_500));
    vi.useRealTimers();
    expect(
      await screen.findByText("Oopss!! Sorry, we couldn't find the page you're looking for."),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe(
      '/dashboard/support',
    );
  });
});

function renderLoading(options: { inShell?: boolean; queryClient?: QueryClient }) {
  return renderAt('/', {
    element: <FullScreenLoading inShell={options.inShell ?? false} />,
    ...(options.queryClient && { queryClient: options.queryClient }),
  });
}

/** A query client holding the config an earlier screen read: payments through the sandbox. */
async function afterAnEarlierScreen() {
  server.use(configHandler('sandbox'));
  const queryClient = createTestQueryClient();
  await queryClient.prefetchQuery(portalConfigQuery);
  return queryClient;
}

describe('the test-mode marker on the full-screen loading view', () => {
  it('shows a config an earlier screen read, beside the loading status rather than in it', async () => {
    await renderLoading({ queryClient: await afterAnEarlierScreen() });

    expect(screen.getByText(TEST_MODE_LABEL)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading...');
  });

  it('starts no request of its own', async () => {
    server.use(configHandler('sandbox'));
    await renderLoading({});

    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(sentRequests()).toEqual([]);
    expect(screen.queryByText(TEST_MODE_LABEL)).toBeNull();
  });

  it('is left to the top bar inside the dashboard', async () => {
    await renderLoading({ queryClient: await afterAnEarlierScreen(), inShell: true });

    expect(screen.queryByText(TEST_MODE_LABEL)).toBeNull();
  });
});
