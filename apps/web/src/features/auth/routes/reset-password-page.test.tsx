import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@portal/shared';
import { ResetPasswordPage } from './reset-password-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));

const TOKEN = 'secret-one-time-token';
const PASSWORD = 'New-Passw0rd!';

function renderFromLink(link: string) {
  const router = createMemoryRouter(
    [
      { path: '/auth/login', element: <h1>Sign-in page</h1> },
      { path: '/auth/reset-password', Component: ResetPasswordPage },
    ],
    // The sign-in page first, so there is an entry to go back to.
    { initialEntries: ['/auth/login', link], initialIndex: 1 },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  vi.clearAllMocks();
  // The config the marker reads; this page's own calls are what the tests look at.
  apiMock.get.mockResolvedValue({ success: true, data: { paymentProvider: 'razorpay' } });
});

describe('a reset or invitation link', () => {
  it('loses its token from the address and the history entry, and the form still uses it', async () => {
    apiMock.post.mockResolvedValue({ success: true, message: 'Password updated' });
    const router = renderFromLink(`/auth/reset-password?token=${TOKEN}&utm=mail#top`);

    await waitFor(() => expect(router.state.location.search).toBe('?utm=mail'));
    expect(router.state.location.pathname).toBe('/auth/reset-password');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(JSON.stringify(router.state.location)).not.toContain(TOKEN);

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), PASSWORD);
    await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    expect(await screen.findByText('Password updated')).toBeTruthy();
    expect(apiMock.post).toHaveBeenCalledWith('/auth/reset-password', { token: TOKEN, password: PASSWORD });

    // Back, then forward again: no entry holds the token.
    await router.navigate(-1);
    expect(router.state.location.pathname).toBe('/auth/login');
    await router.navigate(1);
    expect(router.state.location.search).toBe('?utm=mail');
  });

  it('without a token says the link is invalid and leaves the address alone', async () => {
    const router = renderFromLink('/auth/reset-password');

    expect(await screen.findByText(messages.login.resetInvalid)).toBeTruthy();
    expect(router.state.historyAction).toBe('POP');
  });
});
