import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { RESET_TOKEN_KEY } from '../reset-token';
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

/** The server: the check answers whether `live` holds the token; the reset uses it up. */
let live: Set<string>;
function serve() {
  apiMock.post.mockImplementation(async (path: string, body: { token: string }) => {
    if (path === '/auth/reset-password/check')
      return { success: true, data: { usable: live.has(body.token) } };
    if (path === '/auth/reset-password') {
      if (!live.delete(body.token)) throw new ApiError(400, messages.login.resetInvalid);
      return { success: true, message: 'Password updated' };
    }
    throw new Error(`unexpected ${path}`);
  });
}

beforeEach(() => {
  vi.clearAllMocks();
  sessionStorage.clear();
  live = new Set([TOKEN]);
  serve();
  // The config the marker reads; this page's own calls are what the tests look at.
  apiMock.get.mockResolvedValue({ success: true, data: { paymentProvider: 'razorpay' } });
});

describe('a reset or invitation link', () => {
  it('loses its token from the address and the history entry, and the form still uses it', async () => {
    const router = renderFromLink(`/auth/reset-password?token=${TOKEN}&utm=mail#top`);

    await waitFor(() => expect(router.state.location.search).toBe('?utm=mail'));
    expect(router.state.location.pathname).toBe('/auth/reset-password');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(JSON.stringify(router.state.location)).not.toContain(TOKEN);

    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), PASSWORD);
    await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    expect(await screen.findByText('Password updated')).toBeTruthy();
    // Used: nothing of it is kept.
    expect(sessionStorage.getItem(RESET_TOKEN_KEY)).toBeNull();
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

  it('checks the link as it opens: a dead one says so at once, with the way to a new one', async () => {
    live.clear();
    renderFromLink(`/auth/reset-password?token=${TOKEN}`);

    expect(await screen.findByText(messages.login.resetInvalid)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/auth/forgot-password',
    );
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(apiMock.post).toHaveBeenCalledWith('/auth/reset-password/check', { token: TOKEN });
    expect(sessionStorage.getItem(RESET_TOKEN_KEY)).toBeNull();
  });

  it('still works after a reload, once the token has left the address bar', async () => {
    const first = renderFromLink(`/auth/reset-password?token=${TOKEN}`);
    await waitFor(() => expect(first.state.location.search).toBe(''));
    expect(await screen.findByLabelText('New password')).toBeTruthy();
    cleanup();

    // The reload: the same address, without the token, in the same tab.
    renderFromLink('/auth/reset-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), PASSWORD);
    await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Password updated')).toBeTruthy();
    expect(apiMock.post).toHaveBeenCalledWith('/auth/reset-password', { token: TOKEN, password: PASSWORD });
  });

  it('says the link is dead when the server refuses it on sending (used meanwhile)', async () => {
    renderFromLink(`/auth/reset-password?token=${TOKEN}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), PASSWORD);
    await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    live.clear();
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(messages.login.resetInvalid)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toBeTruthy();
    expect(sessionStorage.getItem(RESET_TOKEN_KEY)).toBeNull();
  });

  it('shows the checklist as plain requirements before anything is typed', async () => {
    renderFromLink(`/auth/reset-password?token=${TOKEN}`);
    await screen.findByLabelText('New password');
    const states = [...document.querySelectorAll('[data-rule]')].map((li) => li.getAttribute('data-state'));
    expect(states).toEqual(['neutral', 'neutral', 'neutral', 'neutral', 'neutral']);
  });
});
