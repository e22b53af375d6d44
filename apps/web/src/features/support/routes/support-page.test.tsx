import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages, ticketSchema, type Scope, type SessionUser, type Ticket } from '@portal/shared';
import { catchDownloads } from '../../../test/downloads';
import { renderAt } from '../../../test/render-at';
import { done, file, ok, pageOf, XLSX } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aUser, permission } from '../../../test/users';
import { SupportPage } from './support-page';

function userWith(role: string, supportScopes: Scope[]): SessionUser {
  return aUser({ role, username: 'tester', permissions: [permission('support', supportScopes)] });
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
  server.use(http.get('/api/auth/support/tickets', ({ request }) => pageOf(ticketSchema, tickets, request)));
}

let signedIn: SessionUser;

function renderPage() {
  return renderAt('/dashboard/support', { element: <SupportPage />, user: signedIn });
}

const ALL: Scope[] = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'];

beforeEach(() => {
  signedIn = userWith('admin', ALL);
  serve([]);
});

describe('support page', () => {
  it("shows 'No Record Found' for an empty list, asks the server for 10 rows by default", async () => {
    await renderPage();
    expect(await screen.findByText(messages.support.empty)).toBeTruthy();
    expect(sentRequests('GET', '/auth/support/tickets').map((r) => r.query)).toEqual([
      { page: '1', pageSize: '10' },
    ]);
    // The empty text alone: no "0–0 of 0" pager under it.
    expect(screen.queryByText(/of 0/)).toBeNull();
    expect(screen.queryByRole('combobox', { name: /Rows per page/ })).toBeNull();
  });

  it('chooses the page size under the list, like every list: 10, 25, 50 or 100', async () => {
    serve([ticket]);
    const user = userEvent.setup();
    await renderPage();
    await screen.findByText('report.pdf');
    expect(screen.queryByRole('combobox', { name: 'Show' })).toBeNull();
    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['10', '25', '50', '100']);
    await user.click(options[3]!);
    await waitFor(() =>
      expect(lastRequest('GET', '/auth/support/tickets').query).toEqual({ page: '1', pageSize: '100' }),
    );
  });

  it("refuses an empty message with 'Please enter a message' and sends nothing", async () => {
    const user = userEvent.setup();
    await renderPage();
    await user.click(screen.getByRole('button', { name: messages.support.submitFeedback }));
    expect((await screen.findAllByText(messages.support.messageRequired)).length).toBeGreaterThan(0);
    expect(sentRequests('POST')).toHaveLength(0);
  });

  it('sends the message, the type and the attachment as multipart', async () => {
    server.use(
      http.post('/api/auth/support/tickets', () =>
        ok(
          ticketSchema,
          { ...ticket, ticketType: 'callback' },
          { status: 201, message: messages.support.callbackRequested },
        ),
      ),
    );
    const user = userEvent.setup();
    await renderPage();
    await user.type(screen.getByRole('textbox', { name: /Message/ }), 'Call me please');
    const file = new File(['%PDF-1.4'], 'brief.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText(messages.support.attachmentLabel, { selector: 'input' }), file);
    expect(screen.getByText('brief.pdf')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: messages.support.requestCallBack }));
    expect(await screen.findByText(messages.support.callbackRequested)).toBeTruthy();
    const sent = lastRequest('POST', '/auth/support/tickets');
    expect(sent.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = sent.body as FormData;
    expect(form.get('message')).toBe('Call me please');
    expect(form.get('type')).toBe('callback');
    const attachment = form.get('file') as File;
    expect([attachment.name, attachment.type, await attachment.text()]).toEqual([
      'brief.pdf',
      'application/pdf',
      '%PDF-1.4',
    ]);
  });

  it('refuses a file of a type outside the hint before sending', async () => {
    const user = userEvent.setup({ applyAccept: false });
    await renderPage();
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
    await renderPage();
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
    await renderPage();
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
    server.use(http.delete('/api/auth/support/tickets/:id', () => done(messages.support.deleted)));
    const user = userEvent.setup();
    await renderPage();
    await user.click(await screen.findByRole('button', { name: `Actions for ${ticket.ticketId}` }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(messages.support.deleteConfirm)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(sentRequests('DELETE').map((r) => r.path)).toEqual(['/auth/support/tickets/t1']),
    );
  });

  it('offers only the actions the user holds', async () => {
    signedIn = userWith('reader', ['READ']);
    serve([ticket]);
    const user = userEvent.setup();
    await renderPage();
    await user.click(await screen.findByRole('button', { name: `Actions for ${ticket.ticketId}` }));
    const items = screen.getAllByRole('menuitem').map((i) => i.textContent);
    expect(items).toEqual(['View']);
    expect(screen.queryByRole('button', { name: messages.support.submitFeedback })).toBeNull();
    expect(screen.queryByRole('button', { name: messages.common.exportToExcel })).toBeNull();
  });

  it('exports the filtered list as a real download', async () => {
    server.use(http.get('/api/auth/support/tickets/export', () => file('tickets-2025-01-31.xlsx', XLSX)));
    const downloads = catchDownloads();
    const user = userEvent.setup();
    await renderPage();
    await user.click(screen.getByRole('button', { name: messages.common.exportToExcel }));
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['tickets-2025-01-31.xlsx']));
    expect(lastRequest('GET', '/auth/support/tickets/export').query).toEqual({ format: 'xlsx' });
  });
});
