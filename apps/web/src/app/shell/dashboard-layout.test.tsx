import { render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@portal/shared';
import { portalConfigQuery, type PortalConfig } from '../../features/auth/api/get-config';
import { TEST_MODE_EXPLANATION, TEST_MODE_LABEL } from '../../features/auth/components/test-mode-badge';
import { DashboardLayout } from './dashboard-layout';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/api-client')>()),
  api: apiMock,
}));
const USER = { id: 'u1', username: 'asha', role: { name: 'admin', permissions: [] } } as unknown as User;
vi.mock('../../features/auth/auth-context', () => ({
  useAuth: () => ({ user: USER, isAuthenticated: true, logout: vi.fn() }),
}));

function serve(paymentProvider: PortalConfig['paymentProvider']) {
  apiMock.get.mockImplementation(async (path: string) => {
    if (path === '/config')
      return {
        success: true,
        data: {
          productUrl: 'https://product.example.test',
          chatbotUrl: 'https://bot.example.test',
          paymentProvider,
          razorpayKeyId: paymentProvider === 'razorpay' ? 'rzp_live_x' : null,
        },
      };
    if (path === '/auth/notifications/unread-count') return { success: true, data: { count: 0 } };
    throw new Error(`unexpected ${path}`);
  });
}

function renderShell(path: string) {
  const queryClient = new QueryClient();
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard',
        Component: DashboardLayout,
        children: [
          { index: true, element: <h1>Home page</h1> },
          { path: 'billing', element: <h1>Billing page</h1> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return queryClient;
}

beforeEach(() => vi.clearAllMocks());

describe('the test-mode marker in the dashboard shell', () => {
  it.each(['/dashboard', '/dashboard/billing'])(
    'shows in the top bar of %s when payments go through the sandbox',
    async (path) => {
      serve('sandbox');
      renderShell(path);

      const banner = screen.getByRole('banner');
      const marker = await within(banner).findByText(TEST_MODE_LABEL);
      expect(document.getElementById(marker.getAttribute('aria-describedby')!)?.textContent).toBe(
        TEST_MODE_EXPLANATION,
      );
      // One marker per screen: the page itself does not repeat it.
      expect(screen.getAllByText(TEST_MODE_LABEL)).toHaveLength(1);
    },
  );

  it('does not show when payments go through Razorpay', async () => {
    serve('razorpay');
    const queryClient = renderShell('/dashboard');

    await waitFor(() => expect(queryClient.getQueryData(portalConfigQuery.queryKey)).toBeDefined());
    expect(screen.getByRole('heading', { name: 'Home page' })).toBeTruthy();
    expect(screen.queryByText(TEST_MODE_LABEL)).toBeNull();
  });
});
