import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { messages, storageKeys } from '@portal/shared';
import { renderAt } from '../test/render-at';
import { refusal } from '../test/responses';
import { sentRequests, server } from '../test/server';
import { aUser } from '../test/users';
import { ProtectedLayout } from './guard';

vi.mock('./shell/dashboard-layout', () => ({ DashboardLayout: () => <p>dashboard shell</p> }));

const USER = aUser({ username: 'asha' });

/** The guarded shell, opened with a stored session whose user `me` answers first with `answer`. */
function renderSignedIn(answer: () => Response) {
  server.use(http.get('/api/auth/auth-session/me', answer, { once: true }));
  return renderAt('/dashboard', {
    routes: [
      { path: '/dashboard', element: <ProtectedLayout /> },
      { path: '/auth/login', element: <p>sign-in page</p> },
    ],
    user: USER,
  });
}

describe('a stored session whose user cannot be read', () => {
  it('is kept when no answer came, and a retry that reaches the server signs back in', async () => {
    await renderSignedIn(() => HttpResponse.error());

    expect(await screen.findByText(messages.password.network)).toBeTruthy();
    expect(screen.queryByText('sign-in page')).toBeNull();
    expect(localStorage.getItem(storageKeys.userId)).toBe(USER.id);

    // The server answers again: `me` reads the user.
    await userEvent.setup().click(screen.getByRole('button', { name: messages.common.retry }));
    expect(await screen.findByText('dashboard shell')).toBeTruthy();
    expect(sentRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /auth/auth-session/me',
      'GET /auth/auth-session/me',
    ]);
  });

  it('is kept on a server error, whose message is shown', async () => {
    await renderSignedIn(() => refusal(503, 'Service unavailable'));

    expect(await screen.findByText('Service unavailable')).toBeTruthy();
    expect(localStorage.getItem(storageKeys.userId)).toBe(USER.id);
  });

  it('ends when the server answers that the user is gone', async () => {
    await renderSignedIn(() => refusal(404, 'User not found'));

    expect(await screen.findByText('sign-in page')).toBeTruthy();
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();
  });
});
