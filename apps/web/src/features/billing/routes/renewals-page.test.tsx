import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  activityItemSchema,
  billingPlanSchema,
  billingPlanViewSchema,
  formatDate,
  messages,
  parseDay,
  renewalListItemSchema,
  renewalSchema,
  SUBSCRIPTION_TIMELINE_ENTITIES,
  type ActivityItem,
  type BillingPlan,
  type RenewalListItem,
  type RenewalView,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, pageOf, refusal } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin } from '../../../test/users';
import { setViewportWidth } from '../../../test/viewport';
import { labels, renewalViewLabels } from '../labels';
import { anEvent, aPlan, aRenewalRow, renewalId } from '../test-utils';
import { RenewalsPage } from './renewals-page';

const DECLINED = 'Declined by the bank: insufficient funds in the account (code 51)';
const BETA_ID = '66666666-6666-4666-8666-666666666666';
const MARCH = '1 Mar 2030 – 1 Apr 2030';

/** Which rows each view lists, as the API chooses them. */
const IN_VIEW: Record<RenewalView, (r: RenewalListItem) => boolean> = {
  due: (r) => ['scheduled', 'notified', 'failed'].includes(r.status),
  pending: (r) => ['awaiting_authentication', 'awaiting_payment'].includes(r.status),
  failed: (r) => r.status === 'failed',
  lapsed: (r) => r.status === 'lapsed',
  all: () => true,
};

let rows: RenewalListItem[];

beforeEach(() => {
  rows = [
    aRenewalRow(3, {
      organizationName: 'Acme Hiring',
      collection: 'mandate',
      status: 'failed',
      noticeSentAt: '2030-02-27T00:00:00.000Z',
      attempts: 2,
      lastError: DECLINED,
      // 09:30 on 4 March in India.
      nextAttemptAt: '2030-03-04T04:00:00.000Z',
    }),
    aRenewalRow(3, {
      id: renewalId(13),
      organizationId: BETA_ID,
      organizationName: 'Beta Talent',
      status: 'notified',
      noticeSentAt: '2030-02-27T00:00:00.000Z',
      amountPaise: 590_000,
    }),
    aRenewalRow(3, {
      id: renewalId(23),
      organizationName: 'Gamma Labs',
      status: 'awaiting_payment',
      noticeSentAt: '2030-02-27T00:00:00.000Z',
    }),
  ];
  server.use(
    http.get('/api/auth/renewals', ({ request }) => {
      const view = (new URL(request.url).searchParams.get('view') ?? 'all') as RenewalView;
      return pageOf(renewalListItemSchema, rows.filter(IN_VIEW[view]), request);
    }),
  );
});

function renderPage() {
  return renderAt('/dashboard/renewals', { element: <RenewalsPage />, user: aSuperAdmin() });
}

function cellsOf(table: HTMLElement, row: number) {
  return within(within(table).getAllByRole('row')[row]!)
    .getAllByRole('cell')
    .map((c) => c.textContent);
}

const actionsOf = (organization: string) => labels.renewalActionsFor(`${organization}, ${MARCH}`);

/** The row's actions, as its menu lists them. */
async function menuOf(organization: string) {
  await userEvent.setup().click(await screen.findByRole('button', { name: actionsOf(organization) }));
  const menu = await screen.findByRole('menu');
  return within(menu)
    .getAllByRole('menuitem')
    .map((i) => i.textContent);
}

/** Runs one of the row's actions. */
async function runAction(organization: string, action: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: actionsOf(organization) }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
}

/** Opens the row's Record payment dialog. */
async function openRecord(organization: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: actionsOf(organization) }));
  await user.click(await screen.findByRole('menuitem', { name: labels.recordPayment }));
  return screen.findByRole('dialog', { name: labels.recordPaymentTitle });
}

describe('RenewalsPage', () => {
  it('lists the renewals due this week first, each with what happens next', async () => {
    await renderPage();
    expect(screen.getByRole('heading', { level: 1, name: labels.renewalsTitle })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['Due in 7 days', 'true'],
      ['Waiting for the customer', 'false'],
      ['Declined', 'false'],
      ['Lapsed', 'false'],
      ['All', 'false'],
    ]);
    const table = await screen.findByRole('table', { name: renewalViewLabels.due });
    await within(table).findByText('Acme Hiring');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Organization',
      'Period',
      'Amount',
      'Status',
      'Next attempt or notice',
      'Attempts',
      'Last error',
      'Actions',
    ]);
    expect(cellsOf(table, 1).slice(0, 7)).toEqual([
      'Acme Hiring',
      MARCH,
      '₹1,180.00',
      'Declined',
      'Next attempt 4 Mar 2030, 9:30 am',
      '2',
      DECLINED,
    ]);
    expect(cellsOf(table, 2).slice(0, 7)).toEqual([
      'Beta Talent',
      MARCH,
      '₹5,900.00',
      'Debit announced',
      'Notice sent 27 Feb 2030',
      '0',
      '—',
    ]);
    expect(lastRequest('GET', '/auth/renewals').query).toEqual({ view: 'due', page: '1', pageSize: '10' });
    // Only a renewal waiting for its money can have a payment recorded; every row's plan can be
    // edited and its timeline read.
    expect(await menuOf('Acme Hiring')).toEqual([labels.recordPayment, labels.editPlan, labels.timeline]);
    await userEvent.setup().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(await menuOf('Beta Talent')).toEqual([labels.editPlan, labels.timeline]);
  });

  it('changes view and pages on the server', async () => {
    rows = Array.from({ length: 12 }, (_, i) =>
      aRenewalRow(3, { id: renewalId(100 + i), organizationName: `Org ${i + 1}`, status: 'lapsed' }),
    );
    const user = userEvent.setup();
    await renderPage();
    expect(await screen.findByText(labels.renewalsEmpty)).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: renewalViewLabels.lapsed }));
    await screen.findByText('Org 10');
    expect(lastRequest('GET', '/auth/renewals').query).toEqual({
      view: 'lapsed',
      page: '1',
      pageSize: '10',
    });
    expect(screen.getByText('1–10 of 12')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('Org 12');
    expect(lastRequest('GET', '/auth/renewals').query).toEqual({
      view: 'lapsed',
      page: '2',
      pageSize: '10',
    });
    // Another view starts again at its first page.
    await user.click(screen.getByRole('tab', { name: renewalViewLabels.all }));
    await waitFor(() =>
      expect(lastRequest('GET', '/auth/renewals').query).toEqual({ view: 'all', page: '1', pageSize: '10' }),
    );
  });

  it('records a payment for a renewal waiting for one, then reads the list again', async () => {
    server.use(
      http.post('/api/auth/renewals/:id/payments', ({ params }) => {
        const row = rows.find((r) => r.id === params.id)!;
        row.status = 'paid';
        return ok(renewalSchema, { ...row }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    await renderPage();
    await user.click(screen.getByRole('tab', { name: renewalViewLabels.pending }));
    const dialog = await openRecord('Gamma Labs');
    expect(dialog.textContent).toContain('Gamma Labs');
    expect(dialog.textContent).toContain(MARCH);
    expect(dialog.textContent).toContain('₹1,180.00');

    // A transaction id is needed, by the shared rule.
    await user.click(within(dialog).getByRole('button', { name: labels.recordPayment }));
    expect(await within(dialog).findByText(messages.payment.transactionIdRequired)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Transaction ID/ }), ' UTR-42 ');
    await user.click(within(dialog).getByRole('combobox', { name: labels.paymentMethod }));
    await user.click(await screen.findByRole('option', { name: 'UPI' }));
    const date = within(dialog).getByRole('textbox', { name: labels.paymentDate }) as HTMLInputElement;
    expect(date.value).toBe(formatDate(new Date()));
    await user.clear(date);
    await user.type(date, '2/3/2030');
    await user.type(within(dialog).getByRole('textbox', { name: labels.remarks }), 'NEFT from Gamma');
    const reads = sentRequests('GET', '/auth/renewals').length;
    await user.click(within(dialog).getByRole('button', { name: labels.recordPayment }));
    expect(await screen.findByText(labels.paymentRecorded)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lastRequest('POST', `/auth/renewals/${renewalId(23)}/payments`).body).toEqual({
      transactionId: 'UTR-42',
      paymentMethod: 'upi',
      paymentDate: parseDay('2/3/2030'),
      remarks: 'NEFT from Gamma',
    });
    // Paid, it leaves the customer's waiting list.
    await waitFor(() => expect(sentRequests('GET', '/auth/renewals').length).toBeGreaterThan(reads));
    await waitFor(() => expect(screen.queryByText('Gamma Labs')).toBeNull());
  });

  it('shows the server’s refusal as worded, and keeps the dialog to correct it', async () => {
    server.use(
      http.post('/api/auth/renewals/:id/payments', () => refusal(409, messages.billing.duplicateTransaction)),
    );
    const user = userEvent.setup();
    await renderPage();
    const dialog = await openRecord('Acme Hiring');
    await user.type(within(dialog).getByRole('textbox', { name: /Transaction ID/ }), 'UTR-1');
    await user.click(within(dialog).getByRole('button', { name: labels.recordPayment }));
    expect(await screen.findByText(messages.billing.duplicateTransaction)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: labels.recordPaymentTitle })).toBeTruthy();
  });

  it('closes and reads the list again when the renewal no longer waits for a payment', async () => {
    server.use(
      http.post('/api/auth/renewals/:id/payments', () => refusal(409, messages.renewals.notPayable)),
    );
    const user = userEvent.setup();
    await renderPage();
    const dialog = await openRecord('Acme Hiring');
    await user.type(within(dialog).getByRole('textbox', { name: /Transaction ID/ }), 'UTR-1');
    const reads = sentRequests('GET', '/auth/renewals').length;
    await user.click(within(dialog).getByRole('button', { name: labels.recordPayment }));
    expect(await screen.findByText(messages.renewals.notPayable)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(sentRequests('GET', '/auth/renewals').length).toBeGreaterThan(reads));
  });

  it('says why the list could not be read', async () => {
    server.use(http.get('/api/auth/renewals', () => refusal(500, messages.common.unexpected)));
    await renderPage();
    expect(await screen.findByText(messages.common.unexpected)).toBeTruthy();
  });

  it('shows each renewal as a card on a phone, its actions in the corner', async () => {
    setViewportWidth(375);
    await renderPage();
    const list = await screen.findByRole('list', { name: renewalViewLabels.due });
    const card = within(list).getAllByRole('listitem')[0]!;
    expect(within(card).getByText('Acme Hiring')).toBeTruthy();
    expect(within(card).getByText(MARCH)).toBeTruthy();
    expect(
      within(card)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Amount', 'Status', 'Next attempt or notice', 'Attempts', 'Last error']);
    expect(within(card).getByRole('button', { name: actionsOf('Acme Hiring') })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('editing an organization’s plan', () => {
  /** Each organization's plan, as GET /auth/billing-plan?organizationId= answers it. */
  let plans: Record<string, BillingPlan>;

  beforeEach(() => {
    plans = { [BETA_ID]: aPlan({ organizationId: BETA_ID, rolloverCap: 50 }) };
    server.use(
      http.get('/api/auth/billing-plan', ({ request }) => {
        const id = new URL(request.url).searchParams.get('organizationId') ?? '';
        return ok(billingPlanViewSchema, { plan: plans[id] ?? null, renewals: [] });
      }),
      http.put('/api/auth/billing-plan/terms', async ({ request }) => {
        const id = new URL(request.url).searchParams.get('organizationId')!;
        plans[id] = { ...plans[id]!, ...((await request.json()) as Partial<BillingPlan>) };
        return ok(billingPlanSchema, plans[id]);
      }),
    );
  });

  async function openEdit(organization: string) {
    await runAction(organization, labels.editPlan);
    return screen.findByRole('dialog', { name: labels.editPlanTitle(organization) });
  }

  const field = (dialog: HTMLElement, name: string | RegExp) =>
    within(dialog).getByRole('spinbutton', { name }) as HTMLInputElement;

  it('fills the plan’s terms, then sends paise, basis points and no rollover cap when emptied', async () => {
    const user = userEvent.setup();
    await renderPage();
    const dialog = await openEdit('Beta Talent');
    await waitFor(() => expect(field(dialog, /Credits a month/).value).toBe('10'));
    expect(lastRequest('GET', '/auth/billing-plan').query).toEqual({ organizationId: BETA_ID });
    expect(field(dialog, /Price per credit/).value).toBe('100');
    expect(field(dialog, /GST percentage/).value).toBe('18');
    expect(field(dialog, labels.rolloverCap).value).toBe('50');
    expect(within(dialog).getByText(labels.editPlanHint)).toBeTruthy();

    await user.clear(field(dialog, /Credits a month/));
    await user.type(field(dialog, /Credits a month/), '25');
    await user.clear(field(dialog, /Price per credit/));
    await user.type(field(dialog, /Price per credit/), '123.45');
    await user.clear(field(dialog, /GST percentage/));
    await user.type(field(dialog, /GST percentage/), '12.5');
    await user.clear(field(dialog, labels.rolloverCap));
    // 25 × ₹123.45 = ₹3,086 (whole rupees) + 12.5 % GST.
    expect(within(dialog).getByText('₹3,472.00')).toBeTruthy();
    const reads = sentRequests('GET', '/auth/renewals').length;
    await user.click(within(dialog).getByRole('button', { name: labels.savePlan }));
    expect(await screen.findByText(labels.planTermsSaved)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = lastRequest('PUT', '/auth/billing-plan/terms');
    expect(put.query).toEqual({ organizationId: BETA_ID });
    expect(put.body).toEqual({
      creditsPerPeriod: 25,
      pricePerCreditPaise: 12_345,
      taxRateBp: 1250,
      rolloverCap: null,
    });
    // The renewals scheduled at the old terms change with it: the list is read again.
    await waitFor(() => expect(sentRequests('GET', '/auth/renewals').length).toBeGreaterThan(reads));
  });

  it('sends a rollover cap typed, and checks the fields before sending', async () => {
    const user = userEvent.setup();
    await renderPage();
    const dialog = await openEdit('Beta Talent');
    await waitFor(() => expect(field(dialog, labels.rolloverCap).value).toBe('50'));
    await user.clear(field(dialog, /GST percentage/));
    await user.type(field(dialog, /GST percentage/), '120');
    await user.clear(field(dialog, labels.rolloverCap));
    await user.type(field(dialog, labels.rolloverCap), '2.5');
    await user.click(within(dialog).getByRole('button', { name: labels.savePlan }));
    expect(await within(dialog).findByText(labels.gstInvalid)).toBeTruthy();
    expect(within(dialog).getByText(labels.rolloverCapInvalid)).toBeTruthy();
    expect(sentRequests('PUT')).toHaveLength(0);

    await user.clear(field(dialog, /GST percentage/));
    await user.type(field(dialog, /GST percentage/), '0');
    await user.clear(field(dialog, labels.rolloverCap));
    await user.type(field(dialog, labels.rolloverCap), '200');
    await user.click(within(dialog).getByRole('button', { name: labels.savePlan }));
    expect(await screen.findByText(labels.planTermsSaved)).toBeTruthy();
    expect(lastRequest('PUT', '/auth/billing-plan/terms').body).toEqual({
      creditsPerPeriod: 10,
      pricePerCreditPaise: 10_000,
      taxRateBp: 0,
      rolloverCap: 200,
    });
  });

  it('shows the server’s objection on its field and keeps the dialog', async () => {
    const TOO_LOW = 'Too small: expected number to be >=100';
    server.use(
      http.put('/api/auth/billing-plan/terms', () =>
        // As the API's validation answers: the first issue's message, and each field's.
        refusal(400, TOO_LOW, { pricePerCreditPaise: [TOO_LOW] }),
      ),
    );
    const user = userEvent.setup();
    await renderPage();
    const dialog = await openEdit('Beta Talent');
    await waitFor(() => expect(field(dialog, /Price per credit/).value).toBe('100'));
    await user.click(within(dialog).getByRole('button', { name: labels.savePlan }));
    // On the price field, and in the toast.
    await waitFor(() => expect(field(dialog, /Price per credit/).getAttribute('aria-invalid')).toBe('true'));
    expect(field(dialog, /Price per credit/).getAttribute('aria-describedby')).toBeTruthy();
    expect(
      document.getElementById(field(dialog, /Price per credit/).getAttribute('aria-describedby')!)
        ?.textContent,
    ).toBe(TOO_LOW);
    expect(screen.getAllByText(TOO_LOW)).toHaveLength(2);
    expect(screen.getByRole('dialog', { name: labels.editPlanTitle('Beta Talent') })).toBeTruthy();
  });

  it('says so when the organization has no plan', async () => {
    await renderPage();
    const dialog = await openEdit('Acme Hiring');
    expect(await within(dialog).findByText(messages.renewals.planNotFound)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: labels.savePlan })).toBeNull();
  });
});

describe('an organization’s timeline', () => {
  let events: ActivityItem[];

  beforeEach(() => {
    events = Array.from({ length: 25 }, (_, i) =>
      anEvent(25 - i, { organizationId: BETA_ID, message: `Beta event ${25 - i}` }),
    );
    server.use(
      http.get('/api/auth/activities', ({ request }) => pageOf(activityItemSchema, events, request)),
    );
  });

  it('lists the organization’s subscription events in a side panel, paged', async () => {
    const user = userEvent.setup();
    await renderPage();
    await runAction('Beta Talent', labels.timeline);
    const panel = await screen.findByRole('dialog', { name: labels.timelineTitle('Beta Talent') });
    const list = await within(panel).findByRole('list', { name: labels.timelineTitle('Beta Talent') });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(20);
    // Event 25 is 25 hours into 2030 (UTC): 6:30 am on 2 January in India.
    expect(items[0]!.textContent).toBe('2 Jan 2030, 6:30 amBeta event 25');
    expect(lastRequest('GET', '/auth/activities').query).toEqual({
      page: '1',
      pageSize: '20',
      entityType: SUBSCRIPTION_TIMELINE_ENTITIES.join(','),
      organizationId: BETA_ID,
    });
    await user.click(within(panel).getByRole('button', { name: 'Go to next page' }));
    await within(panel).findByText('Beta event 1');
    expect(lastRequest('GET', '/auth/activities').query).toMatchObject({
      page: '2',
      organizationId: BETA_ID,
    });
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says so when there is nothing yet', async () => {
    events = [];
    await renderPage();
    await runAction('Acme Hiring', labels.timeline);
    const panel = await screen.findByRole('dialog', { name: labels.timelineTitle('Acme Hiring') });
    expect(await within(panel).findByText(labels.historyEmpty)).toBeTruthy();
  });
});
