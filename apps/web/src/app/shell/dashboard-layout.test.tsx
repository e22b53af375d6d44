import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEST_MODE_EXPLANATION, TEST_MODE_LABEL } from '../../components/test-mode-badge';
import { portalConfigQuery, type PortalConfig } from '../../lib/portal-config';
import { renderAt } from '../../test/render-at';
import { configHandler, server } from '../../test/server';
import { aTenantAdmin } from '../../test/users';
import { ProtectedLayout } from '../guard';

/** The shell as the route table assembles it (behind the guard), payments through `paymentProvider`. */
function renderShell(path: string, paymentProvider: PortalConfig['paymentProvider']) {
  server.use(configHandler(paymentProvider));
  return renderAt(path, {
    routes: [
      {
        path: '/dashboard',
        element: <ProtectedLayout />,
        children: [
          { index: true, element: <h1>Home page</h1> },
          { path: 'billing', element: <h1>Billing page</h1> },
        ],
      },
    ],
    user: aTenantAdmin({ username: 'asha' }),
  });
}

describe('the test-mode marker in the dashboard shell', () => {
  it.each(['/dashboard', '/dashboard/billing'])(
    'shows in the top bar of %s when payments go through the sandbox',
    async (path) => {
      await renderShell(path, 'sandbox');

      const banner = await screen.findByRole('banner');
      const marker = await within(banner).findByText(TEST_MODE_LABEL);
      expect(document.getElementById(marker.getAttribute('aria-describedby')!)?.textContent).toBe(
        TEST_MODE_EXPLANATION,
      );
      // One marker per screen: the page itself does not repeat it.
      expect(screen.getAllByText(TEST_MODE_LABEL)).toHaveLength(1);
    },
  );

  it('does not show when payments go through Razorpay', async () => {
    const { queryClient } = await renderShell('/dashboard', 'razorpay');

    await waitFor(() => expect(queryClient.getQueryData(portalConfigQuery.queryKey)).toBeDefined());
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeTruthy();
    expect(screen.queryByText(TEST_MODE_LABEL)).toBeNull();
  });
});
