import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FEATURES, messages, type PermissionEntry, type Scope, type Ticket, type User } from '@portal/shared';
import { SupportPage } from './support-page';

const apiMock = vi.hoisted(() => ({
  get: vi.fn(),
  post: vi.fn(),
  put: vi.fn(),
  delete: vi.fn(),
  download: vi.fn(),
}));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

function userWith(roleName: string, supportScopes: Scope[]): User {
  const permissions: PermissionEntry[] = [
    {
      id: 'p1',
      featureId: FEATURES.support.id,
      featureName: FEATURES.support.name,
      permissionScopes: supportScopes,
    },
  ];
  return {
    id: 'u1',
    username: 'tester',
    email: 'tester@example.test',
    fullName: null,
    mobileNo: null,
    enabled: true,
    isActive: true,
    isSubscription: true,
    client: 'Acme',
    roleId: 'r1',
    role: { id: 'r1', name: roleName, isSystem: false, permissions },
    organizationId: 'o1',
    isAdmin: false,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

const ticket: Ticket = {
  id: 't1',
  ticketId: 'TICKET-1735689600000',
  organizationId: 'o1',
  organizationName: 'Acme',
  ticketType: 'feedback',
  name: 'report.pdf',
  type: 'application/pdf',
  message: 'The report is wrong',
  status: 'Active',
  file: '/api/files/f1',
  createdBy: 'u1',
  createdByName: 'tester',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedDate: '2025-01-02T00:00:00.000Z',
};

function serve(tickets: Ticket[]) {
  apiMock.get.mockImplementation(
    async (_path: string, options: { params: { page: number; pageSize: number } }) => ({
      success: true,
      data: tickets,
      meta: { page: options.params.page, pageSize: options.params.pageSize, total: tickets.length },
    }),
  );
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <SnackbarProvider maxSnack={3}>
        <MemoryRouter initialEntries={['/dashboard/support']}>
          <SupportPage />
        </MemoryRouter>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
}

const ALL: Scope[] = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'];

beforeEach(() => {
  vi.clearAllMocks();
  auth.user = userWith('admin', ALL);
  serve([]);
});

describe('support page', () => {
  it("shows 'No Record Found' for an empty list, asks the server for 10 rows by default", async () => {
    renderPage();
    expect(await screen.findByText(messages.support.empty)).toBeTruthy();
    expect(apiMock.get).toHaveBeenCalledWith('/auth/support/tickets', {
      params: { page: 1, pageSize: 10, search: undefined },
    });
    // The empty text alone: no "0–0 of 0" pager under it.
    expect(screen.queryByText(/of 0/)).toBeNull();
    expect(screen.queryByRole('combobox', { name: /Rows per page/ })).toBeNull();
  });

  it('chooses the page size under the list, like every list: 10, 25, 50 or 100', async () => {
    serve([ticket]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('report.pdf');
    expect(screen.queryByRole('combobox', { name: 'Show' })).toBeNull();
    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['10', '25', '50', '100']);
    await user.click(options[3]!);
    await waitFor(() =>
      expect(apiMock.get).toHaveBeenLastCalledWith('/auth/support/tickets', {
        params: { page: 1, pageSize: 100, search: undefined },
      }),
    );
  });

  it("refuses an empty message with 'Please enter a message' and sends nothing", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: messages.support.submitFeedback }));
    expect((await screen.findAllByText(messages.support.messageRequired)).length).toBeGreaterThan(0);
    expect(apiMock.post).not.toHaveBeenCalled();
  });

  it('sends the message, the type and the attachment as multipart', async () => {
    apiMock.post.mockResolvedValue({ success: true, data: { ...ticket, ticketType: 'callback' } });
    const user = userEvent.setup();
    renderPage();
    await user.type(screen.getByRole('textbox', { name: /Message/ }), 'Call me please');
    const file = new File(['%PDF-1.4'], 'brief.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText(messages.support.attachmentLabel, { selector: 'input' }), file);
    expect(screen.getByText('brief.pdf')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: messages.support.requestCallBack }));
    await waitFor(() => expect(apiMock.post).toHaveBeenCalled());
    const [path, body] = apiMock.post.mock.calls[0]!;
    expect(path).toBe('/auth/support/tickets');
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect(form.get('message')).toBe('Call me please');
    expect(form.get('type')).toBe('callback');
    expect((form.get('file') as File).name).toBe('brief.pdf');
    expect(await screen.findByText(messages.support.callbackRequested)).toBeTruthy();
  });

  it('refuses a file of a type outside the hint before sending', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    const exe = new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' });
    await user.upload(screen.getByLabelText(messages.support.attachmentLabel, { selector: 'input' }), exe);
    expect(await screen.findByText(messages.support.fileTypeRejected)).toBeTruthy();
    expect(screen.queryByText('setup.exe')).toBeNull();
  });

  it("names each ticket's type one way: the request, and the attachment's kind", async () => {
    serve([
      ticket,
      {
        ...ticket,
        id: 't2',
        ticketId: 'TICKET-1735689600001',
        ticketType: 'callback',
        name: messages.support.noFile,
        type: 'text',
        file: null,
      },
      { ...ticket, id: 't3', ticketId: 'TICKET-1735689600002', name: 'shot.png', type: 'image/png' },
    ]);
    renderPage();
    await screen.findByText('shot.png');
    const table = screen.getByRole('table', { name: messages.support.raisedTickets });
    const typeColumn = within(table)
      .getAllByRole('columnheader')
      .findIndex((h) => h.textContent === 'Type');
    const types = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[typeColumn]!.textContent);
    expect(types).toEqual([
      'FeedbackAttachment: PDF',
      'Call backAttachment: None',
      'FeedbackAttachment: Image',
    ]);
  });

  it('loads a ticket back into the form with View, with its attachment link', async () => {
    serve([ticket]);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: `Actions for ${ticket.ticketId}` }));
    await user.click(screen.getByRole('menuitem', { name: 'View' }));
    const form = screen.getByRole('region', { name: messages.support.raiseTicket });
    expect((within(form).getByRole('textbox', { name: /Message/ }) as HTMLTextAreaElement).value).toBe(
      ticket.message,
    );
    expect(within(form).getByRole('link', { name: 'report.pdf' }).getAttribute('href')).toBe('/api/files/f1');
  });

  it('deletes after the confirmation question', async () => {
    serve([ticket]);
    apiMock.delete.mockResolvedValue({ success: true });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: `Actions for ${ticket.ticketId}` }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(messages.support.deleteConfirm)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(apiMock.delete).toHaveBeenCalledWith('/auth/support/tickets/t1'));
  });

  it('offers only the actions the user holds', async () => {
    auth.user = userWith('reader', ['READ']);
    serve([ticket]);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: `Actions for ${ticket.ticketId}` }));
    const items = screen.getAllByRole('menuitem').map((i) => i.textContent);
    expect(items).toEqual(['View']);
    expect(screen.queryByRole('button', { name: messages.support.submitFeedback })).toBeNull();
    expect(screen.queryByRole('button', { name: messages.common.exportToExcel })).toBeNull();
  });

  it('exports the filtered list as a real download', async () => {
    apiMock.download.mockResolvedValue(undefined);
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: messages.common.exportToExcel }));
    await waitFor(() =>
      expect(apiMock.download).toHaveBeenCalledWith(
        '/auth/support/tickets/export',
        { format: 'xlsx', search: undefined },
        'tickets.xlsx',
      ),
    );
  });
});
