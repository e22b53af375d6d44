import { act, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LoadingLayerProvider, useLoadingLayer } from './loading-layer';

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
