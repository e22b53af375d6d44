import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  mailAttemptsSchema,
  messages,
  undeliveredMailSchema,
  type MailAttempt,
  type UndeliveredMail,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { done, ok, pageOf, refusal } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin } from '../../../test/users';
import { setViewportWidth } from '../../../test/viewport';
import { labels } from '../labels';
import { UndeliveredMailPage } from './undelivered-mail-page';

const SMTP_550 =
  '550 5.1.1 <asha@acme.tset>: Recipient address rejected: User unknown in virtual mailbox table; the domain acme.tset has no mail exchanger';

/** Mail ids are UUIDs, as the API's routes take them. */
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const M1 = idOf(1);

function mail(overrides: Partial<UndeliveredMail> = {}): UndeliveredMail {
  return {
    id: M1,
    to: 'asha@acme.tset',
    subject: 'You are invited to the portal',
    kind: 'invitation',
    organizationName: 'Acme Hiring',
    attempts: 1,
    lastError: SMTP_550,
    createdAt: '2026-04-09T18:55:00.000Z',
    // 00:30 on 10 April in India.
    gaveUpAt: '2026-04-09T19:00:00.000Z',
    ...overrides,
  };
}

const ATTEMPTS: MailAttempt[] = [
  {
    attemptedAt: '2026-04-09T18:56:00.000Z',
    outcome: 'temporary_failure',
    smtpCode: null,
    error: 'connect ECONNREFUSED 10.0.0.5:587',
  },
  { attemptedAt: '2026-04-09T19:00:00.000Z', outcome: 'permanent_failure', smtpCode: 550, error: SMTP_550 },
];

let rows: UndeliveredMail[];

beforeEach(() => {
  rows = [
    mail(),
    mail({
      id: idOf(2),
      to: 'ravi@beta.test',
      subject: 'Tax invoice IC/26-27/000002',
      kind: 'tax_invoice',
      organizationName: null,
      attempts: 5,
      lastError: null,
      gaveUpAt: '2026-04-10T09:15:00.000Z',
    }),
  ];
  server.use(
    http.get('/api/auth/mail/undelivered', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search')?.toLowerCase();
      const found = rows.filter(
        (m) => !search || m.to.includes(search) || m.subject.toLowerCase().includes(search),
      );
      return pageOf(undeliveredMailSchema, found, request);
    }),
    http.get('/api/auth/mail/:id/attempts', () => ok(mailAttemptsSchema, ATTEMPTS)),
  );
});

function renderPage() {
  return renderAt('/dashboard/mail', { element: <UndeliveredMailPage />, user: aSuperAdmin() });
}

function cellsOf(table: HTMLElement, row: number) {
  return within(within(table).getAllByRole('row')[row]!)
    .getAllByRole('cell')
    .map((c) => c.textContent);
}

/** Opens the row's Send again dialog. */
async function openResend(to: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: labels.actionsFor(to) }));
  await user.click(await screen.findByRole('menuitem', { name: messages.mail.resend }));
  return screen.findByRole('dialog', { name: messages.mail.resend });
}

describe('UndeliveredMailPage', () => {
  it('lists each undelivered mail with its kind, organization, attempts, last error and when it was given up', async () => {
    await renderPage();
    expect(screen.getByRole('heading', { level: 1, name: messages.mail.title })).toBeTruthy();
    expect(screen.getByText(messages.mail.intro)).toBeTruthy();
    const table = await screen.findByRole('table', { name: messages.mail.title });
    await within(table).findByText('asha@acme.tset');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Recipient',
      'Subject',
      'Kind',
      'Organization',
      'Attempts',
      'Last error',
      'Gave up at',
      'Actions',
    ]);
    // Dated in India: 19:00 UTC on 9 April is past midnight there.
    expect(cellsOf(table, 1).slice(0, 7)).toEqual([
      'asha@acme.tset',
      'You are invited to the portal',
      'Invitation',
      'Acme Hiring',
      '1',
      SMTP_550,
      '10 Apr 2026, 12:30 am',
    ]);
    expect(cellsOf(table, 2).slice(0, 7)).toEqual([
      'ravi@beta.test',
      'Tax invoice IC/26-27/000002',
      'Tax invoice',
      '—',
      '5',
      '—',
      '10 Apr 2026, 2:45 pm',
    ]);
    // A long error is cut on screen, whole in its tooltip.
    expect(within(table).getByText(SMTP_550).getAttribute('title')).toBe(SMTP_550);
    expect(lastRequest('GET', '/auth/mail/undelivered').query).toEqual({ page: '1', pageSize: '10' });
  });

  it('searches and pages on the server', async () => {
    rows = Array.from({ length: 12 }, (_, i) =>
      mail({ id: idOf(i + 1), to: `person${i + 1}@acme.test`, subject: `Mail ${i + 1}` }),
    );
    const user = userEvent.setup();
    await renderPage();
    await screen.findByText('person10@acme.test');
    expect(screen.getByText('1–10 of 12')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('person12@acme.test');
    expect(lastRequest('GET', '/auth/mail/undelivered').query).toEqual({ page: '2', pageSize: '10' });

    await user.type(screen.getByRole('textbox', { name: labels.search }), 'person11');
    await waitFor(() =>
      expect(lastRequest('GET', '/auth/mail/undelivered').query).toEqual({
        page: '1',
        pageSize: '10',
        search: 'person11',
      }),
    );
    await waitFor(() => expect(screen.queryByText('person10@acme.test')).toBeNull());
    expect(screen.getByText('person11@acme.test')).toBeTruthy();
  });

  it('says every mail has been delivered when none is left', async () => {
    rows = [];
    await renderPage();
    expect(await screen.findByText(messages.mail.empty)).toBeTruthy();
  });

  it('says why the list could not be read', async () => {
    server.use(http.get('/api/auth/mail/undelivered', () => refusal(500, messages.mail.loadFailed)));
    await renderPage();
    expect(await screen.findByText(messages.mail.loadFailed)).toBeTruthy();
  });

  it('sends a mail again to a corrected address, says what the server said, and the mail leaves the list', async () => {
    server.use(
      http.post('/api/auth/mail/:id/resend', ({ params }) => {
        rows = rows.filter((m) => m.id !== params.id);
        return done(messages.mail.resent);
      }),
    );
    const user = userEvent.setup();
    await renderPage();
    const dialog = await openResend('asha@acme.tset');

    // The attempts, oldest first, each with its time, outcome, SMTP code and whole error.
    const attempts = await within(dialog).findByRole('table', { name: messages.mail.attemptsTitle });
    await within(attempts).findByText('connect ECONNREFUSED 10.0.0.5:587');
    expect(cellsOf(attempts, 1)).toEqual([
      '10 Apr 2026, 12:26 am',
      'Temporary failure',
      labels.noAnswer,
      'connect ECONNREFUSED 10.0.0.5:587',
    ]);
    expect(cellsOf(attempts, 2)).toEqual(['10 Apr 2026, 12:30 am', 'Refused for good', '550', SMTP_550]);
    expect(lastRequest('GET', `/auth/mail/${M1}/attempts`)).toBeTruthy();

    const to = within(dialog).getByRole('textbox', { name: messages.mail.resendTo });
    expect((to as HTMLInputElement).value).toBe('asha@acme.tset');
    await user.clear(to);
    await user.type(to, 'asha@acme');
    await user.click(within(dialog).getByRole('button', { name: messages.mail.resend }));
    expect(await within(dialog).findByText(messages.users.invalidEmail)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);

    await user.type(to, '.test');
    await user.click(within(dialog).getByRole('button', { name: messages.mail.resend }));
    expect(await screen.findByText(messages.mail.resent)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lastRequest('POST', `/auth/mail/${M1}/resend`).body).toEqual({ to: 'asha@acme.test' });
    // Read again, the list no longer has it.
    await waitFor(() => expect(screen.queryByText('asha@acme.tset')).toBeNull());
    expect(screen.getByText('ravi@beta.test')).toBeTruthy();
  });

  it('shows the server’s objection to the address on the field', async () => {
    const refused = 'The mail server does not accept this domain.';
    server.use(http.post('/api/auth/mail/:id/resend', () => refusal(400, refused, { to: [refused] })));
    const user = userEvent.setup();
    await renderPage();
    const dialog = await openResend('asha@acme.tset');
    await user.click(within(dialog).getByRole('button', { name: messages.mail.resend }));
    const to = within(dialog).getByRole('textbox', { name: messages.mail.resendTo });
    await waitFor(() => expect(to.getAttribute('aria-invalid')).toBe('true'));
    // The field's own message, not only the toast.
    expect(document.getElementById(to.getAttribute('aria-describedby')!)?.textContent).toBe(refused);
    // Still open, to correct it.
    expect(screen.getByRole('dialog', { name: messages.mail.resend })).toBeTruthy();
    expect(lastRequest('POST', `/auth/mail/${M1}/resend`).body).toEqual({ to: 'asha@acme.tset' });
  });

  it('closes and reads the list again when the mail is no longer undelivered', async () => {
    server.use(http.post('/api/auth/mail/:id/resend', () => refusal(409, messages.mail.notUndelivered)));
    const user = userEvent.setup();
    await renderPage();
    const dialog = await openResend('asha@acme.tset');
    const reads = sentRequests('GET', '/auth/mail/undelivered').length;
    await user.click(within(dialog).getByRole('button', { name: messages.mail.resend }));
    expect(await screen.findByText(messages.mail.notUndelivered)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(sentRequests('GET', '/auth/mail/undelivered').length).toBeGreaterThan(reads));
  });

  it('shows each mail as a card on a phone, its actions in the corner', async () => {
    setViewportWidth(375);
    await renderPage();
    const list = await screen.findByRole('list', { name: messages.mail.title });
    const card = within(list).getAllByRole('listitem')[0]!;
    expect(within(card).getByText('asha@acme.tset')).toBeTruthy();
    expect(within(card).getByText('You are invited to the portal')).toBeTruthy();
    expect(
      within(card)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Kind', 'Organization', 'Attempts', 'Last error', 'Gave up at']);
    expect(within(card).getByRole('button', { name: labels.actionsFor('asha@acme.tset') })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
