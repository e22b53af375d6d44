import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages, positionSchema, type Position, type Scope, type SessionUser } from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, page, refusal } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin, aUser, permission } from '../../../test/users';
import { labels } from '../labels';
import { PositionsPage } from './positions-page';

/** A recruiter holding `scopes` of Position Management. */
function userWith(scopes: Scope[]): SessionUser {
  return aUser({ role: 'Recruiter', permissions: [permission('positions', scopes)] });
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
let signedIn: SessionUser;

beforeEach(() => {
  signedIn = userWith(['READ', 'CREATE', 'UPDATE']);
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
  server.use(
    http.get('/api/auth/positions', ({ request }) => {
      const status = new URL(request.url).searchParams.get('status');
      const data = rows.filter((r) => !status || r.status === status);
      return page(positionSchema, data, { page: 1, pageSize: 10, total: data.length });
    }),
  );
});

function renderPage() {
  return renderAt('/dashboard/positions', { element: <PositionsPage />, user: signedIn });
}

describe('PositionsPage', () => {
  it('lists title, department, location, openings, status and created date', async () => {
    await renderPage();
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
    await renderPage();
    await screen.findByText('Backend Engineer');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Closed' }));
    await waitFor(() => expect(screen.queryByText('Backend Engineer')).toBeNull());
    expect(screen.getByText('Sales Lead')).toBeTruthy();
    expect(lastRequest('GET', '/auth/positions').query).toEqual({
      page: '1',
      pageSize: '10',
      status: 'Closed',
    });
    await user.type(screen.getByRole('textbox', { name: messages.positions.search }), 'sales');
    await waitFor(() =>
      expect(lastRequest('GET', '/auth/positions').query).toEqual({
        page: '1',
        pageSize: '10',
        search: 'sales',
        status: 'Closed',
      }),
    );
  });

  it('validates the form with the shared messages and creates a position', async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/auth/positions', () =>
        ok(positionSchema, position({ id: 'p3', title: 'QA Lead' }), { status: 201 }),
      ),
    );
    await renderPage();
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
    expect(sentRequests('POST')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Title/ }), '  QA Lead ');
    await user.type(within(dialog).getByRole('textbox', { name: /Department/ }), 'Quality');
    await user.type(within(dialog).getByRole('textbox', { name: /Location/ }), 'Remote');
    await user.clear(openings);
    await user.type(openings, '3');
    await user.click(within(dialog).getByRole('button', { name: messages.positions.addPosition }));
    expect(await screen.findByText(messages.positions.created)).toBeTruthy();
    expect(lastRequest('POST', '/auth/positions').body).toEqual({
      title: 'QA Lead',
      department: 'Quality',
      location: 'Remote',
      openings: 3,
    });
  });

  it('shows a server field error on the field', async () => {
    const user = userEvent.setup();
    server.use(
      http.put('/api/auth/positions/:id', () =>
        refusal(400, messages.positions.tooLong, { title: [messages.positions.tooLong] }),
      ),
    );
    await renderPage();
    await user.click(await screen.findByRole('button', { name: 'Actions for Backend Engineer' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: messages.positions.editPosition });
    expect(within(dialog).getByRole('textbox', { name: /Title/ })).toHaveProperty(
      'value',
      'Backend Engineer',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText(messages.positions.tooLong)).toBeTruthy();
    expect(lastRequest('PUT', '/auth/positions/p1').body).toEqual({
      title: 'Backend Engineer',
      department: 'Engineering',
      location: 'Pune',
      openings: 2,
    });
  });

  it('closes an open position after confirmation, and offers reopen for a closed one', async () => {
    const user = userEvent.setup();
    server.use(
      http.put('/api/auth/positions/:id/close', () => ok(positionSchema, position({ status: 'Closed' }))),
    );
    await renderPage();
    await user.click(await screen.findByRole('button', { name: 'Actions for Sales Lead' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['Edit', 'Reopen']);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Actions for Backend Engineer' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['Edit', 'Close']);
    await user.click(screen.getByRole('menuitem', { name: 'Close' }));
    const confirm = await screen.findByRole('dialog', { name: messages.positions.closePosition });
    expect(within(confirm).getByText(messages.positions.closeConfirm)).toBeTruthy();
    expect(sentRequests('PUT')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: messages.positions.closePosition }));
    expect(await screen.findByText(messages.positions.closed)).toBeTruthy();
    expect(sentRequests('PUT').map((r) => [r.path, r.body])).toEqual([
      ['/auth/positions/p1/close', undefined],
    ]);
  });

  it('hides what the user may not do', async () => {
    signedIn = userWith(['READ']);
    await renderPage();
    await screen.findByText('Backend Engineer');
    expect(screen.queryByRole('button', { name: messages.positions.addPosition })).toBeNull();
    expect(screen.queryByRole('button', { name: /Actions for/ })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Action' })).toBeNull();
  });

  it('offers Import positions to a holder of Position Management IMPORT only', async () => {
    signedIn = userWith(['READ', 'IMPORT']);
    await renderPage();
    await screen.findByText('Backend Engineer');
    expect(screen.getByRole('link', { name: labels.importPositions }).getAttribute('href')).toBe(
      '/dashboard/imports/positions',
    );

    cleanup();
    signedIn = userWith(['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT']);
    await renderPage();
    await screen.findByText('Backend Engineer');
    expect(screen.queryByRole('link', { name: labels.importPositions })).toBeNull();
  });

  it('shows the empty text and the organization column for super_admin', async () => {
    signedIn = aSuperAdmin();
    rows = [];
    await renderPage();
    expect(await screen.findByText(messages.positions.empty)).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Organization' })).toBeTruthy();
  });
});
