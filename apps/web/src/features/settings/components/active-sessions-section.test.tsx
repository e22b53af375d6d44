import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  activeSessionSchema,
  endedSessionsSchema,
  formatDateTime,
  messages,
  storageKeys,
  type ActiveSession,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { done, ok } from '../../../test/responses';
import { sentRequests, server } from '../../../test/server';
import { aUser } from '../../../test/users';
import { setViewportWidth } from '../../../test/viewport';
import { labels } from '../labels';
import { SettingsPage } from '../routes/settings-page';

const here: ActiveSession = {
  id: 'family-here',
  device: 'Chrome on macOS',
  address: '203.0.113.7',
  signedInAt: '2026-03-01T09:00:00.000Z',
  lastUsedAt: '2026-03-02T10:30:00.000Z',
  current: true,
};
const phone: ActiveSession = {
  id: 'family-phone',
  device: 'Safari on iPhone',
  address: null,
  signedInAt: '2026-02-20T08:00:00.000Z',
  lastUsedAt: '2026-02-28T18:15:00.000Z',
  current: false,
};
const laptop: ActiveSession = { ...phone, id: 'family-laptop', device: 'Firefox on Windows' };

let sessions: ActiveSession[];

beforeEach(() => {
  sessions = [here, phone, laptop];
  server.use(
    http.get('/api/auth/sessions', () => ok(z.array(activeSessionSchema), sessions)),
    http.delete('/api/auth/sessions/:id', ({ params }) => {
      sessions = sessions.filter((s) => s.id !== params.id);
      return done(messages.sessions.ended);
    }),
    http.post('/api/auth/sessions/end-others', () => {
      const ended = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return ok(endedSessionsSchema, { ended }, { message: messages.sessions.othersEnded });
    }),
  );
});

function renderSessions() {
  return renderAt('/dashboard/settings?section=sessions', {
    element: <SettingsPage />,
    others: ['/auth/login'],
    user: aUser(),
  });
}

const row = (device: string) => screen.getByText(device).closest('tr')!;

describe('Settings → Active sessions', () => {
  it('lists the sessions with this browser marked', async () => {
    await renderSessions();
    expect(await screen.findByRole('heading', { name: messages.sessions.title })).toBeTruthy();
    await screen.findByText(here.device);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual([
      labels.device,
      labels.address,
      labels.signedIn,
      labels.lastUsed,
      labels.sessionActions,
    ]);
    expect(within(row(here.device)).getByText(labels.thisBrowser)).toBeTruthy();
    expect(within(row(here.device)).getByText(here.address!)).toBeTruthy();
    expect(within(row(here.device)).getByText(formatDateTime(here.lastUsedAt))).toBeTruthy();
    expect(within(row(phone.device)).queryByText(labels.thisBrowser)).toBeNull();
    expect(within(row(phone.device)).getByText('—')).toBeTruthy();
    expect(screen.getAllByText(labels.thisBrowser)).toHaveLength(1);
  });

  it('ends another session after asking, and lists what is left', async () => {
    const ui = userEvent.setup();
    await renderSessions();
    await ui.click(await screen.findByRole('button', { name: labels.endSessionOf(phone.device) }));
    const dialog = await screen.findByRole('dialog', { name: labels.endTitle });
    expect(within(dialog).getByText(labels.endConfirm(phone.device))).toBeTruthy();
    expect(sentRequests('DELETE')).toHaveLength(0);
    await ui.click(within(dialog).getByRole('button', { name: labels.end }));
    expect(await screen.findByText(messages.sessions.ended)).toBeTruthy();
    expect(sentRequests('DELETE').map((r) => r.path)).toEqual([`/auth/sessions/${phone.id}`]);
    await waitFor(() => expect(screen.queryByText(phone.device)).toBeNull());
    expect(screen.getByText(laptop.device)).toBeTruthy();
    // Still signed in here.
    expect(localStorage.getItem(storageKeys.userId)).not.toBeNull();
  });

  it('ends every other session, and then has none left to end', async () => {
    const ui = userEvent.setup();
    await renderSessions();
    await screen.findByText(laptop.device);
    await ui.click(screen.getByRole('button', { name: labels.endOthers }));
    const dialog = await screen.findByRole('dialog', { name: labels.endOthersTitle });
    await ui.click(within(dialog).getByRole('button', { name: labels.endOthers }));
    expect(await screen.findByText(messages.sessions.othersEnded)).toBeTruthy();
    expect(sentRequests('POST').map((r) => r.path)).toEqual(['/auth/sessions/end-others']);
    await waitFor(() => expect(screen.queryByText(laptop.device)).toBeNull());
    expect(screen.getByText(here.device)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((screen.getByRole('button', { name: labels.endOthers }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("offers Sign out, not End, on this browser's own row, and signs this browser out", async () => {
    const ui = userEvent.setup();
    const { router } = await renderSessions();
    const signOut = await screen.findByRole('button', { name: labels.signOutThisBrowser });
    expect(signOut.textContent).toBe(labels.signOut);
    expect(
      within(row(here.device)).queryByRole('button', { name: labels.endSessionOf(here.device) }),
    ).toBeNull();
    expect(within(row(here.device)).queryByText(labels.end)).toBeNull();
    await ui.click(signOut);
    const dialog = await screen.findByRole('dialog', { name: labels.endCurrentTitle });
    expect(within(dialog).getByText(labels.endCurrentConfirm)).toBeTruthy();
    await ui.click(within(dialog).getByRole('button', { name: labels.signOut }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(sentRequests('DELETE').map((r) => r.path)).toEqual([`/auth/sessions/${here.id}`]);
    // This browser forgets the session the server ended, and reads the list no more.
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();
    expect(sentRequests('GET', '/auth/sessions')).toHaveLength(1);
  });

  it('shows one card per session on a phone, each with its End', async () => {
    setViewportWidth(375);
    const ui = userEvent.setup();
    await renderSessions();
    const list = await screen.findByRole('list', { name: messages.sessions.title });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(within(cards[0]!).getByText(labels.thisBrowser)).toBeTruthy();
    expect(within(cards[1]!).getByText(labels.lastUsed)).toBeTruthy();
    await ui.click(within(cards[1]!).getByRole('button', { name: labels.endSessionOf(phone.device) }));
    expect(await screen.findByRole('dialog', { name: labels.endTitle })).toBeTruthy();
  });
});
