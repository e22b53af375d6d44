import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FEATURES, messages, type ActivityItem, type User } from '@portal/shared';
import { ActivityPage } from './activity-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

function userWith(dashboard: boolean): User {
  return {
    id: 'u1',
    username: 'asha',
    email: 'asha@example.test',
    fullName: null,
    mobileNo: null,
    enabled: true,
    isActive: true,
    isSubscription: true,
    client: 'Acme',
    roleId: 'r1',
    role: {
      id: 'r1',
      name: 'admin',
      isSystem: true,
      permissions: dashboard
        ? [
            {
              id: 'p',
              featureId: FEATURES.dashboard.id,
              featureName: FEATURES.dashboard.name,
              permissionScopes: ['READ'],
            },
          ]
        : [],
    },
    organizationId: 'o1',
    isAdmin: true,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

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
  vi.clearAllMocks();
  auth.user = userWith(true);
  feed = [item(3, 'deleted'), item(2, 'updated'), item(1, 'created')];
  apiMock.get.mockImplementation(async (_path: string, options?: { params?: Record<string, unknown> }) => {
    const type = options?.params?.type;
    const data = feed.filter((a) => !type || a.type === type);
    return { success: true, data, meta: { page: 1, pageSize: 10, total: 42 } };
  });
});

function renderPage() {
  const router = createMemoryRouter([{ path: '/dashboard/activity', element: <ActivityPage /> }], {
    initialEntries: ['/dashboard/activity'],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('ActivityPage', () => {
  it('lists each entry with its type, message, date and actor, and pages on the server', async () => {
    const user = userEvent.setup();
    renderPage();
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
      expect(apiMock.get).toHaveBeenLastCalledWith('/auth/activities', {
        params: { page: 2, pageSize: 10, type: undefined, search: undefined },
      }),
    );
  });

  it('filters by type', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Event 3');
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Created' }));
    await waitFor(() => expect(screen.queryByText('Event 3')).toBeNull());
    expect(apiMock.get).toHaveBeenLastCalledWith('/auth/activities', {
      params: { page: 1, pageSize: 10, type: 'created', search: undefined },
    });
  });

  it('says there is nothing to display', async () => {
    feed = [];
    renderPage();
    expect(await screen.findByText(messages.activity.empty)).toBeTruthy();
  });
});
