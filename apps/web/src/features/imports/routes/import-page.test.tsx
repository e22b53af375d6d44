import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Outlet } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  IMPORT_MAX_BYTES,
  importColumnMissing,
  importColumnsSchema,
  importDetailSchema,
  importSummarySchema,
  messages,
  organizationSummarySchema,
  type ImportDetail,
  type ImportKind,
  type SessionUser,
} from '@portal/shared';
import { catchDownloads } from '../../../test/downloads';
import { renderAt } from '../../../test/render-at';
import { file, ok, pageOf, refusal, XLSX } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin, aUser, ORG_ID, permission } from '../../../test/users';
import { labels } from '../labels';
import { ImportDetailPage } from './import-detail-page';
import { ImportPage } from './import-page';

const IMPORT_ID = '33333333-3333-4333-8333-333333333333';

/** An import as the API answers it: a users dry run of 5 rows unless told otherwise. */
function anImport(overrides: Partial<ImportDetail> = {}): ImportDetail {
  return importDetailSchema.parse({
    id: IMPORT_ID,
    kind: 'users',
    organizationId: ORG_ID,
    fileName: 'team.csv',
    onExisting: 'skip',
    matchBy: 'email',
    mapping: { username: 'User name', email: 'E-mail', mobile: 'Phone', role: 'Role' },
    status: 'dry_run',
    createdBy: 'someone',
    createdAt: '2026-11-27T05:00:00.000Z',
    finishedAt: null,
    counts: { total: 5, toCreate: 3, toUpdate: 0, unchanged: 1, errors: 1 },
    progress: { done: 0, total: 3 },
    results: { created: 0, updated: 0, unchanged: 0, failed: 0 },
    failure: null,
    errors: [{ row: 4, column: 'Email', message: messages.users.invalidEmail }],
    errorsTruncated: false,
    ...overrides,
  } satisfies ImportDetail);
}

/** A member of the organization holding `IMPORT` (and READ) of the kind's feature. */
function importer(kind: ImportKind = 'users'): SessionUser {
  return aUser({ role: 'Importer', permissions: [permission(kind, ['READ', 'IMPORT'])] });
}

/** The import pages of `kind` as the route table has them, opened at `path`. */
function renderImports(path: string, user: SessionUser, kind: ImportKind = 'users') {
  return renderAt(path, {
    route: '/dashboard/imports',
    element: <Outlet />,
    children: [
      { path: kind, element: <ImportPage kind={kind} /> },
      { path: `${kind}/:id`, element: <ImportDetailPage kind={kind} /> },
    ],
    others: ['/dashboard/usermanagement', '/dashboard/positions'],
    user,
  });
}

const spreadsheet = (name = 'team.csv', content = 'User name,E-mail,Phone,Role,Notes\n') =>
  new File([content], name, { type: 'text/csv' });

async function choose(user: ReturnType<typeof userEvent.setup>, chosen: File) {
  await user.upload(screen.getByLabelText(labels.fileInput, { selector: 'input' }), chosen);
}

/** The header chosen for a column of the mapping table. */
const headerFor = (label: string) => screen.getByRole('combobox', { name: labels.headerFor(label) });

beforeEach(() => {
  server.use(
    http.post('/api/auth/imports/users/columns', () =>
      ok(importColumnsSchema, {
        headers: ['User name', 'E-mail', 'Phone', 'Role', 'Notes'],
        // "User name" is not a name the server matches by itself.
        mapping: { username: null, email: 'E-mail', mobile: 'Phone', role: 'Role' },
      }),
    ),
  );
});

describe('a new import', () => {
  it('goes from the columns to the dry run, the commit and its progress to the results', async () => {
    let asked = 0;
    let progressSeen = false;
    server.use(
      http.post('/api/auth/imports/users', () => ok(importDetailSchema, anImport(), { status: 201 })),
      http.post(`/api/auth/imports/users/${IMPORT_ID}/commit`, () =>
        ok(importDetailSchema, anImport({ status: 'queued' }), {
          status: 202,
          message: messages.imports.committed,
        }),
      ),
      // The job at work until the test has seen its progress, done after that.
      http.get(`/api/auth/imports/users/${IMPORT_ID}`, () => {
        asked += 1;
        return ok(
          importDetailSchema,
          !progressSeen
            ? anImport({ status: 'running', progress: { done: 1, total: 3 } })
            : anImport({
                status: 'done',
                progress: { done: 3, total: 3 },
                results: { created: 3, updated: 0, unchanged: 0, failed: 0 },
                finishedAt: '2026-11-27T05:01:00.000Z',
              }),
        );
      }),
    );
    const user = userEvent.setup();
    const { router } = await renderImports('/dashboard/imports/users', importer());
    expect(screen.getByRole('heading', { level: 1, name: labels.title('users') })).toBeTruthy();

    await choose(user, spreadsheet());
    // The server's automatic match fills the mapping; a required column it did not match is empty.
    await screen.findByRole('table', { name: labels.mappingTable });
    expect(headerFor('Email').textContent).toBe('E-mail');
    expect(headerFor('Mobile').textContent).toBe('Phone');
    expect(headerFor('Username').textContent).toBe(labels.chooseHeader);
    const columnsSent = lastRequest('POST', '/auth/imports/users/columns').body as FormData;
    expect((columnsSent.get('file') as File).name).toBe('team.csv');

    // Checked before anything is sent: the server's own message for a column no header is read from.
    await user.click(screen.getByRole('button', { name: labels.checkFile }));
    expect(await screen.findByText(importColumnMissing('Username'))).toBeTruthy();
    expect(sentRequests('POST', '/auth/imports/users')).toHaveLength(0);

    await user.click(headerFor('Username'));
    await user.click(await screen.findByRole('option', { name: 'User name' }));
    await user.click(screen.getByRole('radio', { name: labels.onExisting.update }));
    await user.click(screen.getByRole('button', { name: labels.checkFile }));

    // The dry run: its counts, and each error with its row, column and message.
    const errors = await screen.findByRole('table', { name: labels.errorsTable });
    expect(screen.getByText(labels.toCreate(3))).toBeTruthy();
    expect(screen.getByText(labels.unchanged(1))).toBeTruthy();
    expect(screen.getByText(labels.withErrors(1))).toBeTruthy();
    const cells = within(within(errors).getAllByRole('row')[1]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual(['4', 'Email', messages.users.invalidEmail]);
    const sent = lastRequest('POST', '/auth/imports/users').body as FormData;
    expect((sent.get('file') as File).name).toBe('team.csv');
    expect(JSON.parse(sent.get('mapping') as string)).toEqual({
      username: 'User name',
      email: 'E-mail',
      mobile: 'Phone',
      role: 'Role',
    });
    expect([sent.get('onExisting'), sent.get('matchBy'), sent.get('organizationId')]).toEqual([
      'update',
      'email',
      null,
    ]);

    // The commit, then the import's own page: its progress while the job works, then its results.
    await user.click(screen.getByRole('button', { name: labels.importRecords(3) }));
    expect(await screen.findByText(messages.imports.committed)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/dashboard/imports/users/${IMPORT_ID}`));
    // The commit's answer (queued) shows first; the page asks again after IMPORT_POLL_MS.
    expect(await screen.findByText(labels.progressText(1, 3), {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: labels.progress }).getAttribute('aria-valuenow')).toBe(
      '33',
    );
    progressSeen = true;
    expect(await screen.findByText(labels.created(3), {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: labels.progress })).toBeNull();
    expect(sentRequests('POST', `/auth/imports/users/${IMPORT_ID}/commit`)).toHaveLength(1);
    expect(screen.getByRole('link', { name: labels.recordsList('users') }).getAttribute('href')).toBe(
      '/dashboard/usermanagement',
    );
    // Done: nobody asks again.
    const asks = asked;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(asked).toBe(asks);
    // Every step of the flow, each a few clicks on MUI's selects: longer than one screen's test.
  }, 60_000);

  it('sets a dry run aside when a choice changes after it', async () => {
    server.use(
      http.post('/api/auth/imports/users', () =>
        ok(
          importDetailSchema,
          anImport({ counts: { total: 2, toCreate: 2, toUpdate: 0, unchanged: 0, errors: 0 }, errors: [] }),
          { status: 201 },
        ),
      ),
    );
    const user = userEvent.setup();
    await renderImports('/dashboard/imports/users', importer());
    await choose(user, spreadsheet());
    await user.click(await screen.findByRole('combobox', { name: labels.headerFor('Username') }));
    await user.click(await screen.findByRole('option', { name: 'User name' }));
    await user.click(screen.getByRole('button', { name: labels.checkFile }));
    expect(await screen.findByText(labels.noErrors)).toBeTruthy();
    expect(screen.getByRole('button', { name: labels.importRecords(2) })).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: labels.onExisting.update }));
    expect(screen.queryByRole('button', { name: labels.importRecords(2) })).toBeNull();
  });

  it('offers no commit when no row would create or update a record', async () => {
    server.use(
      http.post('/api/auth/imports/users', () =>
        ok(
          importDetailSchema,
          anImport({ counts: { total: 1, toCreate: 0, toUpdate: 0, unchanged: 0, errors: 1 } }),
          { status: 201 },
        ),
      ),
    );
    const user = userEvent.setup();
    await renderImports('/dashboard/imports/users', importer());
    await choose(user, spreadsheet());
    await user.click(await screen.findByRole('combobox', { name: labels.headerFor('Username') }));
    await user.click(await screen.findByRole('option', { name: 'User name' }));
    await user.click(screen.getByRole('button', { name: labels.checkFile }));
    const commit = await screen.findByRole('button', { name: labels.importRecords(0) });
    expect((commit as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(labels.nothingToImport)).toBeTruthy();
  });

  it('refuses a file over the upload cap before sending it, and shows the server’s refusal of a file', async () => {
    server.use(
      http.post('/api/auth/imports/users/columns', () => refusal(400, messages.imports.notSpreadsheet)),
    );
    const user = userEvent.setup();
    await renderImports('/dashboard/imports/users', importer());
    const huge = spreadsheet('huge.csv');
    Object.defineProperty(huge, 'size', { value: IMPORT_MAX_BYTES + 1 });
    await choose(user, huge);
    expect(await screen.findByText(messages.imports.fileTooLarge)).toBeTruthy();
    expect(sentRequests('POST', '/auth/imports/users/columns')).toHaveLength(0);

    await choose(user, spreadsheet('renamed.csv', 'MZ'));
    expect(await screen.findByText(messages.imports.notSpreadsheet)).toBeTruthy();
    expect(screen.queryByRole('table', { name: labels.mappingTable })).toBeNull();
  });

  it('shows the columns with their rules and downloads the template as .xlsx or .csv', async () => {
    const downloads = catchDownloads();
    server.use(
      http.get('/api/auth/imports/users/template', ({ request }) => {
        const format = new URL(request.url).searchParams.get('format');
        return file(`users-import-template.${format}`, format === 'csv' ? 'text/csv' : XLSX);
      }),
    );
    const user = userEvent.setup();
    await renderImports('/dashboard/imports/users', importer());
    // The columns and their rules are shown beside the template.
    const columns = screen.getByRole('table', { name: labels.columnsTable });
    expect(within(columns).getByText(messages.users.invalidEmail)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: labels.templateXlsx }));
    await user.click(screen.getByRole('button', { name: labels.templateCsv }));
    await waitFor(() =>
      expect(downloads.map((d) => d.name)).toEqual([
        'users-import-template.xlsx',
        'users-import-template.csv',
      ]),
    );
  });

  it('downloads the rows with errors from an import’s page', async () => {
    const downloads = catchDownloads();
    server.use(
      http.get(`/api/auth/imports/users/${IMPORT_ID}`, () => ok(importDetailSchema, anImport())),
      http.get(`/api/auth/imports/users/${IMPORT_ID}/errors`, ({ request }) =>
        file(`import-errors.${new URL(request.url).searchParams.get('format')}`, 'text/csv'),
      ),
    );
    const user = userEvent.setup();
    await renderImports(`/dashboard/imports/users/${IMPORT_ID}`, importer());
    await user.click(await screen.findByRole('button', { name: `${labels.downloadErrors} (.csv)` }));
    await waitFor(() => expect(downloads.at(-1)?.name).toBe('import-errors.csv'));
    expect(lastRequest('GET', `/auth/imports/users/${IMPORT_ID}/errors`).query).toEqual({ format: 'csv' });
  });

  it('has the super administrator choose the organization users are imported into', async () => {
    const acme = {
      id: '44444444-4444-4444-8444-444444444444',
      name: 'Acme',
      isPlatform: false,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    server.use(
      http.get('/api/auth/organizations', ({ request }) =>
        pageOf(organizationSummarySchema, [acme], request),
      ),
      http.post('/api/auth/imports/users', () => ok(importDetailSchema, anImport(), { status: 201 })),
    );
    const user = userEvent.setup();
    await renderImports('/dashboard/imports/users', aSuperAdmin());
    await choose(user, spreadsheet());
    await user.click(await screen.findByRole('combobox', { name: labels.headerFor('Username') }));
    await user.click(await screen.findByRole('option', { name: 'User name' }));
    await user.click(screen.getByRole('button', { name: labels.checkFile }));
    expect(await screen.findByText(messages.users.organizationRequired)).toBeTruthy();
    expect(sentRequests('POST', '/auth/imports/users')).toHaveLength(0);

    await user.click(screen.getByRole('combobox', { name: new RegExp(labels.organization) }));
    await user.click(await screen.findByRole('option', { name: 'Acme' }));
    await user.click(screen.getByRole('button', { name: labels.checkFile }));
    await screen.findByRole('table', { name: labels.errorsTable });
    expect((lastRequest('POST', '/auth/imports/users').body as FormData).get('organizationId')).toBe(acme.id);
  }, 40_000);
});

describe('the import history', () => {
  it('lists the kind’s imports, each opening its own page', async () => {
    server.use(
      http.get('/api/auth/imports/positions', ({ request }) =>
        pageOf(
          importSummarySchema,
          [
            {
              ...anImport({
                kind: 'positions',
                fileName: 'openings.xlsx',
                matchBy: 'title',
                status: 'done',
                results: { created: 7, updated: 0, unchanged: 0, failed: 1 },
              }),
            },
          ],
          request,
        ),
      ),
    );
    const user = userEvent.setup();
    await renderImports('/dashboard/imports/positions', importer('positions'), 'positions');
    await user.click(screen.getByRole('tab', { name: labels.history }));
    const link = await screen.findByRole('link', { name: 'openings.xlsx' });
    expect(link.getAttribute('href')).toBe(`/dashboard/imports/positions/${IMPORT_ID}`);
    const row = link.closest('tr')!;
    expect(within(row).getByText(labels.statuses.done)).toBeTruthy();
    expect(within(row).getByText(`${labels.created(7)} · ${labels.failed(1)}`)).toBeTruthy();
    expect(lastRequest('GET', '/auth/imports/positions').query).toMatchObject({ page: '1', pageSize: '10' });
  });
});
