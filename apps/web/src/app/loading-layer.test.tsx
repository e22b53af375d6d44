import { act, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useEffect } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { portalConfigQuery, type PortalConfig } from '../features/auth/api/get-config';
import { TEST_MODE_LABEL } from '../features/auth/components/test-mode-badge';
import { FullScreenLoading, LoadingLayerProvider, useLoadingLayer } from './loading-layer';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/api-client')>()),
  api: apiMock,
}));

beforeEach(() => vi.clearAllMocks());

function SlowPage() {
  const { setLoaderTimeout } = useLoadingLayer();
  useEffect(() => setLoaderTimeout(true), [setLoaderTimeout]);
  return null;
}

function renderWithLayer() {
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <LoadingLayerProvider>
          <SlowPage />
        </LoadingLayerProvider>
      ),
    },
  ]);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('loader timeout', () => {
  it('shows the loading view, then the not-found message after 30 s', async () => {
    vi.useFakeTimers();
    renderWithLayer();
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

const SANDBOX: PortalConfig = {
  productUrl: 'https://product.example.test',
  chatbotUrl: 'https://bot.example.test',
  paymentProvider: 'sandbox',
  razorpayKeyId: null,
};

function renderLoading(queryClient: QueryClient, inShell = false) {
  render(
    <QueryClientProvider client={queryClient}>
      <FullScreenLoading inShell={inShell} />
    </QueryClientProvider>,
  );
}

describe('the test-mode marker on the full-screen loading view', () => {
  it('shows a config an earlier screen read, beside the loading status rather than in it', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(portalConfigQuery.queryKey, SANDBOX);
    renderLoading(queryClient);

    expect(screen.getByText(TEST_MODE_LABEL)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading...');
  });

  it('starts no request of its own', async () => {
    apiMock.get.mockResolvedValue({ success: true, data: SANDBOX });
    renderLoading(new QueryClient());

    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(apiMock.get).not.toHaveBeenCalled();
    expect(screen.queryByText(TEST_MODE_LABEL)).toBeNull();
  });

  it('is left to the top bar inside the dashboard', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(portalConfigQuery.queryKey, SANDBOX);
    renderLoading(queryClient, true);

    expect(screen.queryByText(TEST_MODE_LABEL)).toBeNull();
  });
});
