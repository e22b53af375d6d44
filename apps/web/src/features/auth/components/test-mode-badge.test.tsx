import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_MODE_EXPLANATION, TEST_MODE_LABEL, TestModeBadge } from '../../../components/test-mode-badge';
import { portalConfigQuery } from '../../../lib/portal-config';
import { renderAt } from '../../../test/render-at';
import { ok } from '../../../test/responses';
import { configHandler, sentRequests, server } from '../../../test/server';
import { ForgotPasswordPage } from '../routes/forgot-password-page';
import { LoginPage } from '../routes/login-page';
import { ResetPasswordPage } from '../routes/reset-password-page';

beforeEach(() => {
  server.use(
    configHandler('sandbox'),
    // The reset page checks its link as it opens.
    http.post('/api/auth/reset-password/check', () =>
      ok(z.object({ usable: z.boolean() }), { usable: true }),
    ),
  );
});

describe('the test-mode marker on the signed-out screens', () => {
  it.each([
    ['sign-in', LoginPage, '/auth/login'],
    ['forgot password', ForgotPasswordPage, '/auth/forgot-password'],
    ['reset password', ResetPasswordPage, '/auth/reset-password?token=t0ken'],
  ])('shows on %s when payments go through the sandbox, with its explanation', async (_, Page, path) => {
    await renderAt(path, { element: <Page />, route: '*' });

    const marker = await screen.findByRole('button', { name: TEST_MODE_LABEL });
    expect(marker.textContent).toBe('Test mode');
    const described = document.getElementById(marker.getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe(TEST_MODE_EXPLANATION);
    // Inside the page's landmark, so a screen reader's landmark navigation does not skip it.
    expect(marker.closest('main')).not.toBeNull();
  });

  it('does not show when payments go through Razorpay', async () => {
    server.use(configHandler('razorpay'));
    const { queryClient } = await renderAt('/auth/login', { element: <LoginPage /> });

    await waitFor(() => expect(queryClient.getQueryData(portalConfigQuery.queryKey)).toBeDefined());
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText(TEST_MODE_LABEL)).toBeNull();
  });

  it('reads the config once, however many markers are on screen', async () => {
    await renderAt('/', {
      element: (
        <main>
          <TestModeBadge />
          <TestModeBadge />
        </main>
      ),
    });

    expect(await screen.findAllByText(TEST_MODE_LABEL)).toHaveLength(2);
    expect(sentRequests().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /config']);
  });

  it('opens its explanation from the keyboard and by a tap, and closes it with Escape or elsewhere', async () => {
    await renderAt('/', {
      element: (
        <main>
          <TestModeBadge />
          <p>elsewhere</p>
        </main>
      ),
    });
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
