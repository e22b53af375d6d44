import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FEATURES, messages, type Position, type Scope, type User } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { PositionsPage } from './positions-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

function userWith(scopes: Scope[], roleName = 'Recruiter'): User {
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
      name: roleName,
      isSystem: false,
      permissions: [
        {
          id: 'p',
          featureId: FEATURES.positions.id,
          featureName: FEATURES.positions.name,
          permissionScopes: scopes,
        },
      ],
    },
    organizationId: 'o1',
    isAdmin: false,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

function position(overrides: Partial<Position>): Position {
  return {
    id: 'p1',
    organizationId: 'o1',
    organizationName: 'Acme',
    title: 'Backend Engineer',
    department: 'Engineering',
    location: 'Pune',
    openings: 2,
    status: 'Open',
    closedAt: null,
    createdAt: '2025-05-01T10:00:00.000Z',
    updatedAt: '2025-05-01T10:00:00.000Z',
    ...overrides,
  };
}

let rows: Position[];

beforeEach(() => {
  vi.clearAllMocks();
  auth.user = userWith(['READ', 'CREATE', 'UPDATE']);
  rows = [
    position({}),
    position({
      id: 'p2',
      title: 'Sales Lead',
      department: 'Sales',
      location: 'Delhi',
      openings: 1,
      status: 'Closed',
    }),
  ];
  apiMock.get.mockImplementation(async (path: string, options?: { params?: Record<string, unknown> }) => {
    if (path !== '/auth/positions') throw new ApiError(404, 'Not found');
    const status = options?.params?.status;
    const data = rows.filter((r) => !status || r.status === status);
    return { success: true, data, meta: { page: 1, pageSize: 10, total: data.length } };
  });
});

function renderPage() {
  const router = createMemoryRouter([{ path: '/dashboard/positions', element: <PositionsPage /> }], {
    initialEntries: ['/dashboard/positions'],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SnackbarProvider>
        <RouterProvider router={router} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
}

describe('PositionsPage', () => {
  it('lists title, department, location, openings, status and created date', async () => {
    renderPage();
    await screen.findByText('Backend Engineer');
    const table = screen.getByRole('table', { name: messages.positions.title });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Title', 'Department', 'Location', 'Openings', 'Status', 'Created', 'Action']);
    const cells = within(within(table).getAllByRole('row')[1]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 6)).toEqual(['Backend Engineer', 'Engineering', 'Pune', '2', 'Open', '1 May 2025']);
  });

  it('filters by status and searches on the server', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Backend Engineer');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Closed' }));
    await waitFor(() => expect(screen.queryByText('Backend Engineer')).toBeNull());
    expect(screen.getByText('Sales Lead')).toBeTruthy();
    expect(apiMock.get).toHaveBeenLastCalledWith('/auth/positions', {
      params: { page: 1, pageSize: 10, search: undefined, status: 'Closed' },
    });
    await user.type(screen.getByRole('textbox', { name: messages.positions.search }), 'sales');
    await waitFor(() =>
      expect(apiMock.get).toHaveBeenLastCalledWith('/auth/positions', {
        params: { page: 1, pageSize: 10, search: 'sales', status: 'Closed' },
      }),
    );
  });

  it('validates the form with the shared messages and creates a position', async () => {
    const user = userEvent.setup();
    apiMock.post.mockResolvedValue({ success: true, data: position({ id: 'p3', title: 'QA Lead' }) });
    renderPage();
    await user.click(await screen.findByRole('button', { name: messages.positions.addPosition }));
    const dialog = await screen.findByRole('dialog', { name: messages.positions.addPosition });
    const openings = within(dialog).getByRole('spinbutton', { name: /Openings/ });
    await user.clear(openings);
    await user.type(openings, '0');
    await user.click(within(dialog).getByRole('button', { name: messages.positions.addPosition }));
    expect(await within(dialog).findByText(messages.positions.titleRequired)).toBeTruthy();
    expect(within(dialog).getByText(messages.positions.departmentRequired)).toBeTruthy();
    expect(within(dialog).getByText(messages.positions.locationRequired)).toBeTruthy();
    expect(within(dialog).getByText(messages.positions.openingsInvalid)).toBeTruthy();
    expect(apiMock.post).not.toHaveBeenCalled();

    await user.type(within(dialog).getByRole('textbox', { name: /Title/ }), '  QA Lead ');
    await user.type(within(dialog).getByRole('textbox', { name: /Department/ }), 'Quality');
    await user.type(within(dialog).getByRole('textbox', { name: /Location/ }), 'Remote');
    await user.clear(openings);
    await user.type(openings, '3');
    await user.click(within(dialog).getByRole('button', { name: messages.positions.addPosition }));
    await waitFor(() =>
      expect(apiMock.post).toHaveBeenCalledWith('/auth/positions', {
        title: 'QA Lead',
        department: 'Quality',
        location: 'Remote',
        openings: 3,
      }),
    );
    expect(await screen.findByText(messages.positions.created)).toBeTruthy();
  });

  it('shows a server field error on the field', async () => {
    const user = userEvent.setup();
    apiMock.put.mockRejectedValue(
      new ApiError(400, messages.positions.tooLong, {
        success: false,
        message: messages.positions.tooLong,
        errors: { title: [messages.positions.tooLong] },
      }),
    );
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Actions for Backend Engineer' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: messages.positions.editPosition });
    expect(within(dialog).getByRole('textbox', { name: /Title/ })).toHaveProperty(
      'value',
      'Backend Engineer',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(apiMock.put).toHaveBeenCalledWith('/auth/positions/p1', {
      title: 'Backend Engineer',
      department: 'Engineering',
      location: 'Pune',
      openings: 2,
    });
    expect(await within(dialog).findByText(messages.positions.tooLong)).toBeTruthy();
  });

  it('closes an open position after confirmation, and offers reopen for a closed one', async () => {
    const user = userEvent.setup();
    apiMock.put.mockResolvedValue({ success: true, data: position({ status: 'Closed' }) });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Actions for Sales Lead' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['Edit', 'Reopen']);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Actions for Backend Engineer' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['Edit', 'Close']);
    await user.click(screen.getByRole('menuitem', { name: 'Close' }));
    const confirm = await screen.findByRole('dialog', { name: messages.positions.closePosition });
    expect(within(confirm).getByText(messages.positions.closeConfirm)).toBeTruthy();
    expect(apiMock.put).not.toHaveBeenCalled();
    await user.click(within(confirm).getByRole('button', { name: messages.positions.closePosition }));
    expect(apiMock.put).toHaveBeenCalledWith('/auth/positions/p1/close');
    expect(await screen.findByText(messages.positions.closed)).toBeTruthy();
  });

  it('hides what the user may not do', async () => {
    auth.user = userWith(['READ']);
    renderPage();
    await screen.findByText('Backend Engineer');
    expect(screen.queryByRole('button', { name: messages.positions.addPosition })).toBeNull();
    expect(screen.queryByRole('button', { name: /Actions for/ })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Action' })).toBeNull();
  });

  it('shows the empty text and the organization column for super_admin', async () => {
    auth.user = userWith([], 'super_admin');
    rows = [];
    renderPage();
    expect(await screen.findByText(messages.positions.empty)).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Organization' })).toBeTruthy();
  });
});
