import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { activityItemSchema, messages, type ActivityItem } from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { page } from '../../../test/responses';
import { lastRequest, server } from '../../../test/server';
import { aTenantAdmin } from '../../../test/users';
import { ActivityPage } from './activity-page';

const item = (i: number, type: ActivityItem['type']): ActivityItem => ({
  id: `a${i}`,
  type,
  message: `Event ${i}`,
  entityType: 'user',
  entityId: null,
  organizationId: 'o1',
  actorUserId: null,
  actorName: i === 1 ? 'Asha Rao' : null,
  date: `2025-06-0${i}T08:00:00.000Z`,
});

let feed: ActivityItem[];

beforeEach(() => {
  feed = [item(3, 'deleted'), item(2, 'updated'), item(1, 'created')];
  server.use(
    http.get('/api/auth/activities', ({ request }) => {
      const type = new URL(request.url).searchParams.get('type');
      const data = feed.filter((a) => !type || a.type === type);
      return page(activityItemSchema, data, { page: 1, pageSize: 10, total: 42 });
    }),
  );
});

function renderPage() {
  return renderAt('/dashboard/activity', { element: <ActivityPage />, user: aTenantAdmin() });
}

describe('ActivityPage', () => {
  it('lists each entry with its type, message, date and actor, and pages on the server', async () => {
    const user = userEvent.setup();
    await renderPage();
    const list = await screen.findByRole('list', { name: messages.activity.title });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent?.slice(0, 14))).toEqual([
      'DeletedEvent 3',
      'UpdatedEvent 2',
      'CreatedEvent 1',
    ]);
    expect(items[2]!.textContent).toContain('Asha Rao');
    expect(items[2]!.querySelector('time')?.getAttribute('datetime')).toBe('2025-06-01T08:00:00.000Z');
    expect(screen.getByText('1–10 of 42')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() =>
      expect(lastRequest('GET', '/auth/activities').query).toEqual({ page: '2', pageSize: '10' }),
    );
  });

  it('filters by type', async () => {
    const user = userEvent.setup();
    await renderPage();
    await screen.findByText('Event 3');
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Created' }));
    await waitFor(() => expect(screen.queryByText('Event 3')).toBeNull());
    expect(lastRequest('GET', '/auth/activities').query).toEqual({
      page: '1',
      pageSize: '10',
      type: 'created',
    });
  });

  it('says there is nothing to display', async () => {
    feed = [];
    await renderPage();
    expect(await screen.findByText(messages.activity.empty)).toBeTruthy();
  });
});
