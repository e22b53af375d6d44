import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages, unreadCountSchema, type SessionUser } from '@portal/shared';
import { renderAt } from '../test/render-at';
import { ok } from '../test/responses';
import { server } from '../test/server';
import { aTenantAdmin, aUser, permission } from '../test/users';
import { routes } from './routes';

/** The whole app (its route table, guard and shell) at `path`, signed in as `user`. */
// The first page of a test waits for the shell's and the page's code.
const LOADED = { timeout: 10_000 };
function renderApp(path: string, user: SessionUser) {
  return renderAt(path, { routes, user });
}

beforeEach(() => {
  // The shell's bell.
  server.use(http.get('/api/auth/notifications/unread-count', () => ok(unreadCountSchema, { count: 0 })));
});

describe('the import pages in the route table', () => {
  it('refuses a member without the kind’s IMPORT', async () => {
    const reader = aUser({
      role: 'Reader',
      permissions: [permission('users', ['READ', 'CREATE', 'EXPORT'])],
    });
    await renderApp('/dashboard/imports/users', reader);
    expect(
      await screen.findByRole('heading', { level: 1, name: messages.http.forbidden }, LOADED),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Import users' })).toBeNull();
  });

  it('refuses an import of another kind than the one held', async () => {
    const importer = aUser({ role: 'Importer', permissions: [permission('users', ['READ', 'IMPORT'])] });
    await renderApp('/dashboard/imports/positions/33333333-3333-4333-8333-333333333333', importer);
    expect(
      await screen.findByRole('heading', { level: 1, name: messages.http.forbidden }, LOADED),
    ).toBeTruthy();
  });

  it('opens the kind’s import page to a holder of its IMPORT', async () => {
    await renderApp('/dashboard/imports/positions', aTenantAdmin());
    expect(await screen.findByRole('heading', { level: 1, name: 'Import positions' }, LOADED)).toBeTruthy();
  });

  it('treats an unknown kind as any unknown address: the app’s not-found, back to the dashboard', async () => {
    const { router } = await renderApp('/dashboard/imports/widgets', aTenantAdmin());
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), LOADED);
    expect(screen.queryByRole('heading', { name: /Import/ })).toBeNull();
  });
});
