import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messages } from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { done, ok, refusal } from '../../../test/responses';
import { lastRequest, server } from '../../../test/server';
import { RESET_TOKEN_KEY } from '../reset-token';
import { ResetPasswordPage } from './reset-password-page';

const TOKEN = 'secret-one-time-token';
const PASSWORD = 'New-Passw0rd!';

async function renderFromLink(link: string) {
  const { router } = await renderAt(link, {
    element: <ResetPasswordPage />,
    route: '/auth/reset-password',
    // The sign-in page first, so there is an entry to go back to.
    previous: ['/auth/login'],
  });
  return router;
}

/** The server: the check answers whether `live` holds the token; the reset uses it up. */
let live: Set<string>;

beforeEach(() => {
  live = new Set([TOKEN]);
  server.use(
    http.post('/api/auth/reset-password/check', async ({ request }) => {
      const { token } = (await request.json()) as { token: string };
      return ok(z.object({ usable: z.boolean() }), { usable: live.has(token) });
    }),
    http.post('/api/auth/reset-password', async ({ request }) => {
      const { token } = (await request.json()) as { token: string };
      return live.delete(token) ? done(messages.login.resetDone) : refusal(400, messages.login.resetInvalid);
    }),
  );
});

describe('a reset or invitation link', () => {
  it('loses its token from the address and the history entry, and the form still uses it', async () => {
    const router = await renderFromLink(`/auth/reset-password?token=${TOKEN}&utm=mail#top`);

    await waitFor(() => expect(router.state.location.search).toBe('?utm=mail'));
    expect(router.state.location.pathname).toBe('/auth/reset-password');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(JSON.stringify(router.state.location)).not.toContain(TOKEN);

    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), PASSWORD);
    await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    expect(await screen.findByText(messages.login.resetDone)).toBeTruthy();
    // Used: nothing of it is kept.
    expect(sessionStorage.getItem(RESET_TOKEN_KEY)).toBeNull();
    expect(lastRequest('POST', '/auth/reset-password').body).toEqual({ token: TOKEN, password: PASSWORD });

    // Back, then forward again: no entry holds the token.
    await router.navigate(-1);
    expect(router.state.location.pathname).toBe('/auth/login');
    await router.navigate(1);
    expect(router.state.location.search).toBe('?utm=mail');
  });

  it('without a token says the link is invalid and leaves the address alone', async () => {
    const router = await renderFromLink('/auth/reset-password');

    expect(await screen.findByText(messages.login.resetInvalid)).toBeTruthy();
    expect(router.state.historyAction).toBe('POP');
  });

  it('checks the link as it opens: a dead one says so at once, with the way to a new one', async () => {
    live.clear();
    await renderFromLink(`/auth/reset-password?token=${TOKEN}`);

    expect(await screen.findByText(messages.login.resetInvalid)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/auth/forgot-password',
    );
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(lastRequest('POST', '/auth/reset-password/check').body).toEqual({ token: TOKEN });
    expect(sessionStorage.getItem(RESET_TOKEN_KEY)).toBeNull();
  });

  it('still works after a reload, once the token has left the address bar', async () => {
    const first = await renderFromLink(`/auth/reset-password?token=${TOKEN}`);
    await waitFor(() => expect(first.state.location.search).toBe(''));
    expect(await screen.findByLabelText('New password')).toBeTruthy();
    cleanup();

    // The reload: the same address, without the token, in the same tab.
    await renderFromLink('/auth/reset-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), PASSWORD);
    await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(messages.login.resetDone)).toBeTruthy();
    expect(lastRequest('POST', '/auth/reset-password').body).toEqual({ token: TOKEN, password: PASSWORD });
  });

  it('says the link is dead when the server refuses it on sending (used meanwhile)', async () => {
    await renderFromLink(`/auth/reset-password?token=${TOKEN}`);
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
    await renderFromLink(`/auth/reset-password?token=${TOKEN}`);
    await screen.findByLabelText('New password');
    const states = [...document.querySelectorAll('[data-rule]')].map((li) => li.getAttribute('data-state'));
    expect(states).toEqual(['neutral', 'neutral', 'neutral', 'neutral', 'neutral']);
  });
});
