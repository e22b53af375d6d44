import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { messages } from '@portal/shared';
import { setViewportWidth } from '../test/viewport';
import { DataTable, type DataColumn, type DataTableProps } from './data-table';
import { RowActionsMenu } from './row-actions-menu';

interface Person {
  id: string;
  name: string;
  email: string;
  role: string;
  product: string;
}

const people: Person[] = [
  { id: 'p1', name: 'Asha', email: 'asha@acme.test', role: 'admin', product: 'Bot' },
  { id: 'p2', name: 'Ravi', email: 'ravi@acme.test', role: 'member', product: 'Bot' },
];

const columns: DataColumn<Person>[] = [
  { label: 'Role', render: (p) => p.role },
  { label: 'Name', card: 'title', render: (p) => p.name },
  { label: 'Email', card: 'subtitle', render: (p) => p.email },
  { label: 'Products', card: 'none', render: (p) => p.product },
];

function renderTable(props: Partial<DataTableProps<Person>> = {}, onView = vi.fn()) {
  render(
    <DataTable
      label="People"
      columns={columns}
      actions={{
        label: 'Action',
        render: (p) => (
          <RowActionsMenu
            label={`Actions for ${p.name}`}
            actions={[{ label: 'View', run: () => onView(p) }]}
          />
        ),
      }}
      rows={people}
      rowKey={(p) => p.id}
      loading={false}
      emptyText="Nobody here"
      pagination={{ count: 2, page: 0, pageSize: 10, onPageChange: () => undefined }}
      {...props}
    />,
  );
  return onView;
}

describe('DataTable below the sm breakpoint (a phone)', () => {
  it('shows each row as a card: title, subtitle, labelled fields, and its action menu', async () => {
    setViewportWidth(375);
    const onView = renderTable();
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'People' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);

    const first = cards[0]!;
    expect(within(first).getByText('Asha')).not.toBeNull();
    expect(within(first).getByText('asha@acme.test')).not.toBeNull();
    // The other columns are labelled fields, in column order; a column marked 'none' is left out.
    const terms = within(first)
      .getAllByRole('term')
      .map((t) => t.textContent);
    expect(terms).toEqual(['Role']);
    expect(within(first).getByRole('definition').textContent).toContain('admin');
    expect(within(first).queryByText('Bot')).toBeNull();

    await userEvent.setup().click(within(first).getByRole('button', { name: 'Actions for Asha' }));
    await userEvent.setup().click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'View' }));
    expect(onView).toHaveBeenCalledWith(people[0]);
    // The pager stays under the cards.
    expect(screen.getByRole('button', { name: 'Go to next page' })).not.toBeNull();
  });

  it('marks the selected row, and takes the first column as the title when none is named', () => {
    setViewportWidth(375);
    renderTable({
      columns: [
        { label: 'Name', render: (p) => p.name },
        { label: 'Role', render: (p) => p.role },
      ],
      isSelected: (p) => p.id === 'p2',
    });
    const cards = within(screen.getByRole('list', { name: 'People' })).getAllByRole('listitem');
    expect(
      within(cards[1]!)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Role']);
    expect(getComputedStyle(cards[1]!).backgroundColor).not.toBe(getComputedStyle(cards[0]!).backgroundColor);
  });

  it('shows the loading spinner and the empty text in place of the cards', () => {
    setViewportWidth(375);
    renderTable({ loading: true });
    expect(screen.getByRole('progressbar', { name: messages.common.loading })).not.toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('shows the empty text when there are no rows', () => {
    setViewportWidth(375);
    renderTable({ rows: [] });
    expect(screen.getByText('Nobody here')).not.toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
  });
});

describe('DataTable from the sm breakpoint up', () => {
  it('is a table whose last column holds the actions', () => {
    setViewportWidth(1280);
    renderTable();
    expect(screen.queryByRole('list', { name: 'People' })).toBeNull();
    const table = screen.getByRole('table', { name: 'People' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Role', 'Name', 'Email', 'Products', 'Action']);
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['admin', 'Asha', 'asha@acme.test', 'Bot', '']);
    expect(within(cells[4]!).getByRole('button', { name: 'Actions for Asha' })).not.toBeNull();
  });

  it('can name the actions column for screen readers only, and goes without a pager', () => {
    setViewportWidth(1280);
    renderTable({
      actions: { label: 'Actions', labelHidden: true, render: () => null },
      pagination: undefined,
    });
    expect(screen.getByRole('columnheader', { name: 'Actions' })).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Go to next page' })).toBeNull();
  });

  it('spans the loading row across every column', () => {
    setViewportWidth(1280);
    renderTable({ loading: true });
    const cell = screen.getByRole('progressbar', { name: messages.common.loading }).closest('td');
    expect(cell?.getAttribute('colspan')).toBe('5');
  });
});
