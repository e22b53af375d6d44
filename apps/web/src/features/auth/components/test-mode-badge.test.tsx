import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render-at';
import { portalConfigQuery, type PortalConfig } from '../api/get-config';
import { ForgotPasswordPage } from '../routes/forgot-password-page';
import { LoginPage } from '../routes/login-page';
import { ResetPasswordPage } from '../routes/reset-password-page';
import { TEST_MODE_EXPLANATION, TEST_MODE_LABEL, TestModeBadge } from './test-mode-badge';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
vi.mock('../auth-context', () => ({ useAuth: () => ({ login: vi.fn() }) }));

function config(paymentProvider: PortalConfig['paymentProvider']): PortalConfig {
  return {
    productUrl: 'https://product.example.test',
    chatbotUrl: 'https://bot.example.test',
    paymentProvider,
    razorpayKeyId: paymentProvider === 'razorpay' ? 'rzp_live_x' : null,
  };
}

function serveConfig(paymentProvider: PortalConfig['paymentProvider']) {
  apiMock.get.mockImplementation(async (path: string) => {
    if (path === '/config') return { success: true, data: config(paymentProvider) };
    throw new Error(`unexpected ${path}`);
  });
}

beforeEach(() => vi.clearAllMocks());

describe('the test-mode marker on the signed-out screens', () => {
  it.each([
    ['sign-in', LoginPage, '/auth/login'],
    ['forgot password', ForgotPasswordPage, '/auth/forgot-password'],
    ['reset password', ResetPasswordPage, '/auth/reset-password?token=t0ken'],
  ])('shows on %s when payments go through the sandbox, with its explanation', async (_, Page, path) => {
    serveConfig('sandbox');
    renderAt(<Page />, { route: '*', path });

    const marker = await screen.findByRole('button', { name: TEST_MODE_LABEL });
    expect(marker.textContent).toBe('Test mode');
    const described = document.getElementById(marker.getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe(TEST_MODE_EXPLANATION);
    // Inside the page's landmark, so a screen reader's landmark navigation does not skip it.
    expect(marker.closest('main')).not.toBeNull();
  });

  it('does not show when payments go through Razorpay', async () => {
    serveConfig('razorpay');
    const { queryClient } = renderAt(<LoginPage />, { route: '*', path: '/auth/login' });

    await waitFor(() => expect(queryClient.getQueryData(portalConfigQuery.queryKey)).toBeDefined());
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText(TEST_MODE_LABEL)).toBeNull();
  });

  it('reads the config once, however many markers are on screen', async () => {
    serveConfig('sandbox');
    renderAt(
      <main>
        <TestModeBadge />
        <TestModeBadge />
      </main>,
      { route: '*', path: '/' },
    );

    expect(await screen.findAllByText(TEST_MODE_LABEL)).toHaveLength(2);
    expect(apiMock.get).toHaveBeenCalledOnce();
  });

  it('opens its explanation from the keyboard and by a tap, and closes it with Escape or elsewhere', async () => {
    serveConfig('sandbox');
    renderAt(
      <main>
        <TestModeBadge />
        <p>elsewhere</p>
      </main>,
      { route: '*', path: '/' },
    );
    const ui = userEvent.setup();
    const marker = await screen.findByRole('button', { name: TEST_MODE_LABEL });
    const note = document.getElementById(marker.getAttribute('aria-controls')!)!;
    expect(note.textContent).toBe(TEST_MODE_EXPLANATION);
    expect(marker.getAttribute('aria-expanded')).toBe('false');

    await ui.tab();
    expect(document.activeElement).toBe(marker);
    await ui.keyboard('{Enter}');
    expect(marker.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('note').textContent).toBe(TEST_MODE_EXPLANATION);
    await ui.keyboard('{Escape}');
    expect(marker.getAttribute('aria-expanded')).toBe('false');

    await ui.keyboard(' ');
    expect(marker.getAttribute('aria-expanded')).toBe('true');
    await ui.click(screen.getByText('elsewhere'));
    expect(marker.getAttribute('aria-expanded')).toBe('false');

    // A tap (a pointer press and release) opens it; a second one closes it.
    await ui.pointer({ keys: '[TouchA]', target: marker });
    expect(marker.getAttribute('aria-expanded')).toBe('true');
    await ui.click(marker);
    expect(marker.getAttribute('aria-expanded')).toBe('false');
  });
});
