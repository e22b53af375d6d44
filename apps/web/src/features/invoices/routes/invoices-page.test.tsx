import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  creditNoteSchema,
  financialYearOf,
  IDEMPOTENCY_HEADER,
  invoiceSchema,
  messages,
  refundResultSchema,
  type Invoice,
  type SessionUser,
} from '@portal/shared';
import { catchDownloads } from '../../../test/downloads';
import { aPayment } from '../../../test/payments';
import { renderAt } from '../../../test/render-at';
import { file, ok, pageOf, refusal, XLSX } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin, aTenantAdmin } from '../../../test/users';
import { setViewportWidth } from '../../../test/viewport';
import { makeCreditNote, makeInvoice, ORG_ID } from '../test-utils';
import { InvoicesPage } from './invoices-page';

let invoiceRows: Invoice[];
let signedIn: SessionUser;

beforeEach(() => {
  signedIn = aSuperAdmin();
  invoiceRows = [
    makeInvoice(),
    makeInvoice({
      id: 'inv-2',
      number: 'IC/26-27/000002',
      buyerName: 'Beta Labs',
      buyerGstin: null,
      placeOfSupplyCode: '27',
      intraState: false,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 18_000,
      refundedPaise: 118_000,
    }),
  ];
  server.use(
    http.get('/api/auth/invoices', ({ request }) => pageOf(invoiceSchema, invoiceRows, request)),
    http.get('/api/auth/credit-notes', ({ request }) =>
      pageOf(creditNoteSchema, [makeCreditNote()], request),
    ),
  );
});

function renderPage() {
  return renderAt('/dashboard/invoices', { element: <InvoicesPage />, user: signedIn });
}

/** The query of the last list request to `path`. */
function lastParams(path = '/auth/invoices'): Record<string, string> {
  return lastRequest('GET', path).query;
}

/** POST /auth/payments/{id}/refunds refunding in full, as the API answers it. */
const refunded = () =>
  ok(
    refundResultSchema,
    {
      payment: aPayment({
        id: 'pay-1',
        organizationId: ORG_ID,
        refundAmountPaise: 50_050,
        refundId: 'rfnd_1',
      }),
      creditNote: makeCreditNote(),
      creditBalance: 5,
    },
    { status: 201, message: messages.refunds.done },
  );

function cellsOf(table: HTMLElement, row: number) {
  return within(within(table).getAllByRole('row')[row]!)
    .getAllByRole('cell')
    .map((c) => c.textContent);
}

async function openActions(number: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Actions for ${number}` }));
  return screen.findByRole('menu');
}

describe('InvoicesPage', () => {
  it('lists each invoice with its buyer, taxes and refunds', async () => {
    await renderPage();
    const table = await screen.findByRole('table', { name: messages.invoices.title });
    await within(table).findByText('IC/26-27/000001');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Number',
      'Date',
      'Organization',
      'GSTIN',
      'Taxable value',
      'Tax',
      'Total',
      'Refunded',
      'Actions',
    ]);
    // Dated in India: 00:30 on 10 April there is still 9 April in UTC.
    expect(cellsOf(table, 1).slice(0, 8)).toEqual([
      'IC/26-27/000001',
      '10 Apr 2026',
      'Acme Hiring',
      '29AAACI1234H1ZU',
      '₹1,000.00',
      'CGST ₹90.00SGST ₹90.00',
      '₹1,180.00',
      '—',
    ]);
    expect(cellsOf(table, 2).slice(0, 8)).toEqual([
      'IC/26-27/000002',
      '10 Apr 2026',
      'Beta Labs',
      messages.tax.unregistered,
      '₹1,000.00',
      'IGST ₹180.00',
      '₹1,180.00',
      '₹1,180.00',
    ]);
  });

  it('pages on the server', async () => {
    invoiceRows = Array.from({ length: 12 }, (_, i) =>
      makeInvoice({ id: `inv-${i + 1}`, number: `IC/26-27/${String(i + 1).padStart(6, '0')}` }),
    );
    const user = userEvent.setup();
    await renderPage();
    await screen.findByText('IC/26-27/000010');
    expect(screen.queryByText('IC/26-27/000011')).toBeNull();
    expect(screen.getByText('1–10 of 12')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('IC/26-27/000012');
    expect(lastParams()).toMatchObject({ page: '2', pageSize: '10' });
  });

  it('filters by financial year, month and search on the server', async () => {
    const user = userEvent.setup();
    await renderPage();
    await screen.findByText('IC/26-27/000001');
    expect(lastParams()).toEqual({ page: '1', pageSize: '10' });
    const month = screen.getByRole('combobox', { name: 'Month' });
    expect(month.getAttribute('aria-disabled')).toBe('true');

    await user.click(screen.getByRole('combobox', { name: 'Financial year' }));
    const years = within(await screen.findByRole('listbox'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    const current = financialYearOf(new Date()).startYear;
    expect(years[0]).toBe('All years');
    expect(years[1]).toBe(`${current}-${String((current + 1) % 100).padStart(2, '0')}`);
    expect(years.at(-1)).toBe('2017-18');
    expect(years).toHaveLength(current - 2017 + 2);
    await user.click(screen.getByRole('option', { name: '2025-26' }));
    await waitFor(() => expect(lastParams()).toEqual({ page: '1', pageSize: '10', financialYear: '2025' }));

    await user.click(screen.getByRole('combobox', { name: 'Month' }));
    const months = within(await screen.findByRole('listbox'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(months).toEqual([
      'All months',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
      'January',
      'February',
      'March',
    ]);
    await user.click(screen.getByRole('option', { name: 'January' }));
    await waitFor(() => expect(lastParams()).toMatchObject({ page: '1', financialYear: '2025', month: '1' }));

    await user.type(screen.getByRole('textbox', { name: messages.invoices.search }), 'acme');
    await waitFor(() =>
      expect(lastParams()).toEqual({
        page: '1',
        pageSize: '10',
        search: 'acme',
        financialYear: '2025',
        month: '1',
      }),
    );

    // All years again: the month goes with it.
    await user.click(screen.getByRole('combobox', { name: 'Financial year' }));
    await user.click(await screen.findByRole('option', { name: 'All years' }));
    await waitFor(() => expect(lastParams()).toEqual({ page: '1', pageSize: '10', search: 'acme' }));

    // The register is exported with the filters of the list.
    server.use(http.get('/api/auth/invoices/export', () => file('gstr1-register-2026-04-10.xlsx', XLSX)));
    const downloads = catchDownloads();
    await user.click(screen.getByRole('button', { name: messages.invoices.exportRegister }));
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['gstr1-register-2026-04-10.xlsx']));
    expect(lastParams('/auth/invoices/export')).toEqual({ search: 'acme' });
  }, 20_000);

  it('shows a tenant admin its own invoices, without the organization column or Refund', async () => {
    signedIn = aTenantAdmin({ organizationId: ORG_ID });
    await renderPage();
    const table = await screen.findByRole('table', { name: messages.invoices.title });
    await within(table).findByText('IC/26-27/000001');
    expect(within(table).queryByRole('columnheader', { name: 'Organization' })).toBeNull();
    const menu = await openActions('IC/26-27/000001');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual([messages.invoices.downloadPdf]);
  });

  it('offers the super administrator Refund while some of the invoice is left to refund', async () => {
    const user = userEvent.setup();
    await renderPage();
    let menu = await openActions('IC/26-27/000001');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual([messages.invoices.downloadPdf, messages.refunds.refund]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    // Refunded in full: nothing left.
    menu = await openActions('IC/26-27/000002');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual([messages.invoices.downloadPdf]);
  });

  it('downloads an invoice’s PDF through the API client', async () => {
    server.use(http.get('/api/auth/invoices/:id/pdf', () => file('IC-26-27-000001.pdf', 'application/pdf')));
    const downloads = catchDownloads();
    const user = userEvent.setup();
    await renderPage();
    const menu = await openActions('IC/26-27/000001');
    await user.click(within(menu).getByRole('menuitem', { name: messages.invoices.downloadPdf }));
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['IC-26-27-000001.pdf']));
    expect(sentRequests('GET', /\/pdf$/).map((r) => [r.path, r.query])).toEqual([
      ['/auth/invoices/inv-1/pdf', {}],
    ]);
  });

  it('refunds in paise with one Idempotency-Key per opening of the dialog, and refreshes the lists', async () => {
    const user = userEvent.setup();
    await renderPage();
    await user.click(within(await openActions('IC/26-27/000001')).getByRole('menuitem', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund payment' });
    const amount = within(dialog).getByRole('textbox', { name: /Amount to refund/ });
    expect((amount as HTMLInputElement).value).toBe('1180.00');

    await user.clear(amount);
    await user.type(amount, '1180.01');
    await user.click(within(dialog).getByRole('button', { name: messages.refunds.refund }));
    expect(await within(dialog).findByText(messages.refunds.amountTooLarge)).toBeTruthy();
    expect(within(dialog).getByText(messages.refunds.reasonRequired)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);

    await user.clear(amount);
    await user.type(amount, '500.5');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), '  Bought twice ');
    // The provider does not answer the first time; the retry is the same request.
    const refused = `${messages.refunds.failed}: no answer`;
    server.use(http.post('/api/auth/payments/:id/refunds', () => refusal(502, refused), { once: true }));
    await user.click(within(dialog).getByRole('button', { name: messages.refunds.refund }));
    expect(await screen.findByText(refused)).toBeTruthy();
    const readsBefore = sentRequests('GET', '/auth/invoices').length;
    server.use(http.post('/api/auth/payments/:id/refunds', refunded));
    await user.click(within(dialog).getByRole('button', { name: messages.refunds.refund }));
    expect(await screen.findByText(messages.refunds.done)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const refunds = () => sentRequests('POST', '/auth/payments/pay-1/refunds');
    expect(sentRequests('POST')).toHaveLength(2);
    const [first, retry] = refunds();
    expect(first!.body).toEqual({ amountPaise: 50_050, reason: 'Bought twice' });
    const key = first!.headers.get(IDEMPOTENCY_HEADER);
    expect(key).toMatch(/^[0-9a-f-]{32,36}$/);
    expect([retry!.body, retry!.headers.get(IDEMPOTENCY_HEADER)]).toEqual([first!.body, key]);
    // The list is read again.
    await waitFor(() => expect(sentRequests('GET', '/auth/invoices').length).toBeGreaterThan(readsBefore));

    // A new opening is a new refund: a new key.
    await user.click(within(await openActions('IC/26-27/000001')).getByRole('menuitem', { name: 'Refund' }));
    const again = await screen.findByRole('dialog', { name: 'Refund payment' });
    await user.type(within(again).getByRole('textbox', { name: /Reason/ }), 'Again');
    await user.click(within(again).getByRole('button', { name: messages.refunds.refund }));
    await waitFor(() => expect(refunds()).toHaveLength(3));
    await waitFor(() => expect(refunds()[2]!.body).toEqual({ amountPaise: 118_000, reason: 'Again' }));
    expect(refunds()[2]!.headers.get(IDEMPOTENCY_HEADER)).not.toBe(key);
  }, 20_000);

  it('lists the credit notes on their tab and downloads their PDFs', async () => {
    server.use(
      http.get('/api/auth/credit-notes/:id/pdf', () => file('CN-26-27-000001.pdf', 'application/pdf')),
    );
    const downloads = catchDownloads();
    const user = userEvent.setup();
    await renderPage();
    await screen.findByText('IC/26-27/000001');
    await user.click(screen.getByRole('tab', { name: messages.invoices.creditNotes }));
    const table = await screen.findByRole('table', { name: messages.invoices.creditNotes });
    await within(table).findByText('CN/26-27/000001');
    expect(lastParams('/auth/credit-notes')).toEqual({ page: '1', pageSize: '10' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Number',
      'Date',
      'Against invoice',
      'Organization',
      'Total',
      'Credits taken back',
      'Reason',
      'Actions',
    ]);
    expect(cellsOf(table, 1).slice(0, 7)).toEqual([
      'CN/26-27/000001',
      '2 May 2026',
      'IC/26-27/000001',
      'Acme Hiring',
      '₹590.00',
      '5',
      'Bought twice by mistake',
    ]);
    const menu = await openActions('CN/26-27/000001');
    await user.click(within(menu).getByRole('menuitem', { name: messages.invoices.downloadPdf }));
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['CN-26-27-000001.pdf']));
    expect(sentRequests('GET', /\/pdf$/).map((r) => r.path)).toEqual(['/auth/credit-notes/cn-1/pdf']);
  });

  it('shows each invoice as a card on a phone, its actions in the corner', async () => {
    setViewportWidth(375);
    await renderPage();
    const list = await screen.findByRole('list', { name: messages.invoices.title });
    const card = within(list).getAllByRole('listitem')[0]!;
    expect(within(card).getByText('IC/26-27/000001')).toBeTruthy();
    expect(within(card).getByText('10 Apr 2026')).toBeTruthy();
    const terms = within(card)
      .getAllByRole('term')
      .map((t) => t.textContent);
    expect(terms).toEqual(['Organization', 'GSTIN', 'Taxable value', 'Tax', 'Total', 'Refunded']);
    expect(within(card).getByRole('button', { name: 'Actions for IC/26-27/000001' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
