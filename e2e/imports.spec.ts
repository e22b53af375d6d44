import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import {
  messages,
  ORGANIZATION_IMPORT_COLUMNS,
  POSITION_IMPORT_COLUMNS,
  USER_IMPORT_COLUMNS,
  type ImportColumn,
  type ImportKind,
} from '@portal/shared';
import { expect, login, mailsTo, test } from './fixtures';
import { planScenario, setUpScenario, type ScenarioPlan } from './scenario';

/**
 * Imports of every kind (issue 34), as a person does them: from the list, the template downloaded, a
 * file with errors uploaded and its columns matched (one header matched by itself, one by hand), the
 * dry run's errors, the valid rows imported, the file of rows with errors downloaded, fixed and
 * uploaded again (with a row already imported, which is left alone), and the records in their list,
 * each invited address mailed once. Users by a tenant's admin, positions and organizations by the
 * super administrator; a member whose role lacks IMPORT sees no Import button.
 */

const SHOTS = '/tmp/shots';
const INVITATION = (mail: { subject: string }) => /invited/i.test(mail.subject);

/** A .csv as the portal writes one: fields quoted when they hold a comma, quote or line break. */
function csv(rows: readonly (readonly string[])[]): Buffer {
  const field = (f: string) => (/[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f);
  return Buffer.from(rows.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n');
}

/** The rows of a .csv the portal wrote (a byte-order mark, CRLF, quoted fields). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\ufeff/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (body[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

async function download(page: Page, button: string): Promise<Download> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  return file;
}

const textOf = async (file: Download) => readFileSync(await file.path(), 'utf8');

/** From the list's Import button to the kind's import page. */
async function openImport(page: Page, listPath: string, button: string, kind: ImportKind) {
  await page.goto(listPath);
  await page.getByRole('link', { name: button, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/imports/${kind}$`));
  await expect(page.getByRole('heading', { name: `Import ${kind}`, level: 1 })).toBeVisible();
}

/** Both templates download; the .csv's header row is the kind's columns, the .xlsx is a workbook. */
async function checkTemplates(page: Page, kind: ImportKind, columns: readonly ImportColumn[]) {
  const csvTemplate = await download(page, 'Template (.csv)');
  expect(csvTemplate.suggestedFilename()).toBe(`${kind}-import-template.csv`);
  const [header, example] = parseCsv(await textOf(csvTemplate));
  expect(header).toEqual(columns.map((c) => c.label));
  expect(example).toEqual(columns.map((c) => c.example));
  const xlsxTemplate = await download(page, 'Template (.xlsx)');
  expect(xlsxTemplate.suggestedFilename()).toBe(`${kind}-import-template.xlsx`);
  // An .xlsx is a ZIP archive.
  expect(
    readFileSync(await xlsxTemplate.path())
      .subarray(0, 2)
      .toString('latin1'),
  ).toBe('PK');
}

async function upload(page: Page, name: string, rows: readonly (readonly string[])[]) {
  await page.getByLabel('Spreadsheet file').setInputFiles({ name, mimeType: 'text/csv', buffer: csv(rows) });
  await expect(page.getByText(name, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
}

const headerFor = (page: Page, label: string) =>
  page.getByRole('combobox', { name: `Header for ${label}`, exact: true });

/** A column the file names its own way, matched by hand. */
async function mapByHand(page: Page, label: string, header: string) {
  await expect(headerFor(page, label)).toHaveText('Choose a header');
  await headerFor(page, label).click();
  await page.getByRole('option', { name: header, exact: true }).click();
  await expect(headerFor(page, label)).toHaveText(header);
}

/** The summary's chips after "Check file". */
async function expectSummary(page: Page, chips: string[]) {
  for (const chip of chips) await expect(page.getByText(chip, { exact: true })).toBeVisible();
}

/** The dry run's error table lists exactly these rows, columns and messages. */
async function expectErrors(page: Page, errors: [row: number, column: string, message: string][]) {
  const table = page.getByRole('table', { name: 'Errors' });
  await expect(table.getByRole('row')).toHaveCount(errors.length + 1);
  for (const [row, column, message] of errors) {
    await expect(
      table.getByRole('row').filter({
        has: page.getByRole('cell', { name: String(row), exact: true }),
        hasText: `${column}${message}`,
      }),
    ).toHaveCount(1);
  }
}

/** Two screenshots of the dry run with its errors: a laptop's width and a phone's. */
async function screenshots(page: Page) {
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize();
  const review = page.getByRole('region', { name: 'Review and import' });
  for (const [width, height] of [
    [1280, 900],
    [375, 1000],
  ] as const) {
    await page.setViewportSize({ width, height });
    // The report at the bottom of the window, clear of the fixed top bar.
    await review.evaluate((section) => section.scrollIntoView({ block: 'end' }));
    await expect(review.getByRole('button', { name: /^Import \d+ records$/ })).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/e2e-imports-dry-run-${width}.png` });
  }
  if (size) await page.setViewportSize(size);
}

/**
 * The file of rows with errors (.csv): the rows as uploaded under the template's headers, and an Error
 * column naming what is wrong with each.
 */
async function downloadErrorRows(page: Page, columns: readonly ImportColumn[]) {
  const file = await download(page, 'Download rows with errors (.csv)');
  const [header, ...rows] = parseCsv(await textOf(file));
  expect(header).toEqual([...columns.map((c) => c.label), 'Error']);
  return { header: header!, rows };
}

/** Commits what the dry run checked and waits on the import's page until its job is done. */
async function commit(page: Page, records: number, created: number, unchanged = 0) {
  await page.getByRole('button', { name: `Import ${records} record${records === 1 ? '' : 's'}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/imports\/\w+\/[^/?]+$/);
  // The bar is shown while the job works; a few rows may be done before the page first asks.
  const heading = page.getByRole('heading', { name: 'Results' });
  await expect(heading).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toHaveCount(0);
  await expect(page.getByText('Done', { exact: true })).toBeVisible();
  // The results' chips, under their heading (the dry run's summary is above them).
  const results = page.getByRole('list').filter({ has: page.getByText(/^\d+ created$/) });
  await expect(results).toHaveCount(1);
  await expect(results.getByText(`${created} created`, { exact: true })).toBeVisible();
  await expect(results.getByText(`${unchanged} unchanged`, { exact: true })).toBeVisible();
  await expect(results.getByText('0 rows failed', { exact: true })).toBeVisible();
}

/** Back to a new import of the kind, by the history, which lists the committed one with its outcome. */
async function newImport(page: Page, kind: ImportKind, fileName: string, outcome: string) {
  await page.getByRole('link', { name: 'Back to import history' }).click();
  const committed = page
    .getByRole('table', { name: 'Import history' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: fileName, exact: true }) });
  await expect(committed).toHaveCount(1);
  await expect(committed).toContainText('Done');
  await expect(committed).toContainText(outcome);
  await page.getByRole('tab', { name: 'New import' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/imports/${kind}$`));
}

/** Every address has had exactly one invitation. */
async function expectOneInvitationEach(addresses: string[]) {
  await expect
    .poll(() => addresses.filter((a) => mailsTo(a, INVITATION).length === 0), { timeout: 15_000 })
    .toEqual([]);
  // A second invitation would be written by the same job: give it a moment to show.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  for (const address of addresses) expect(mailsTo(address, INVITATION), address).toHaveLength(1);
}

test.describe('imports', () => {
  let plan: ScenarioPlan;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(90_000);
    plan = planScenario('imports');
    await setUpScenario(browser, plan);
  });

  test('users, by a tenant admin: errors fixed in the file of rows with errors, each user invited once', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const tag = randomUUID().slice(0, 8);
    const user = (n: number) => ({ username: `imp.${tag}.${n}`, email: `imp.${tag}.${n}@acme.test` });
    const row = (n: number, overrides: { email?: string; mobile?: string } = {}) => [
      user(n).username,
      overrides.email ?? user(n).email,
      overrides.mobile ?? `98765432${n}0`,
      'admin',
    ];
    await login(page, plan.admin.email, plan.admin.password);
    // Organizations are the platform's to import.
    await page.goto('/dashboard/usermanagement');
    await expect(page.getByRole('link', { name: 'Import users' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Import organizations' })).toHaveCount(0);
    await openImport(page, '/dashboard/usermanagement', 'Import users', 'users');
    await checkTemplates(page, 'users', USER_IMPORT_COLUMNS);

    const fileName = `team-${tag}.csv`;
    await upload(page, fileName, [
      ['Username', 'E-mail address', 'Cell', 'Role'],
      row(1),
      row(2, { email: 'not-an-email' }),
      row(3),
      row(4, { mobile: '12345' }),
      row(5),
      row(6),
    ]);
    // The tenant admin imports into their own organization: no organization to choose.
    await expect(page.getByRole('combobox', { name: /Organization/ })).toHaveCount(0);
    await expect(headerFor(page, 'Username')).toHaveText('Username');
    await expect(headerFor(page, 'Email')).toHaveText('E-mail address');
    await mapByHand(page, 'Mobile', 'Cell');
    await page.getByRole('button', { name: 'Check file' }).click();

    await expectSummary(page, ['4 to create', '0 to update', '0 unchanged', '2 rows with errors']);
    await expect(page.getByText('6 rows checked.')).toBeVisible();
    await expectErrors(page, [
      [3, 'Email', messages.users.invalidEmail],
      [5, 'Mobile', messages.users.invalidMobile],
    ]);
    await screenshots(page);

    const errorFile = await downloadErrorRows(page, USER_IMPORT_COLUMNS);
    expect(errorFile.rows.map((r) => r.slice(0, 4))).toEqual([
      row(2, { email: 'not-an-email' }),
      row(4, { mobile: '12345' }),
    ]);
    expect(errorFile.rows.map((r) => r[4])).toEqual([
      `Email: ${messages.users.invalidEmail}`,
      `Mobile: ${messages.users.invalidMobile}`,
    ]);

    await commit(page, 4, 4);

    // The file of rows with errors, fixed; and a row already imported, which must not be invited twice.
    const fixedName = `team-${tag}-fixed.csv`;
    await newImport(page, 'users', fileName, '4 created');
    await upload(page, fixedName, [
      errorFile.header,
      [...row(2), errorFile.rows[0]![4]!],
      [...row(4), errorFile.rows[1]![4]!],
      [...row(1), ''],
    ]);
    // The template's headers match themselves.
    await expect(headerFor(page, 'Mobile')).toHaveText('Mobile');
    await page.getByRole('button', { name: 'Check file' }).click();
    await expectSummary(page, ['2 to create', '1 unchanged', '0 rows with errors']);
    await expect(page.getByText('No errors: every row can be imported.')).toBeVisible();
    await commit(page, 2, 2, 1);

    await page.getByRole('link', { name: 'Go to Admin Users' }).click();
    await expect(page).toHaveURL(/\/dashboard\/usermanagement$/);
    await page.getByRole('textbox', { name: 'Search admin users...' }).fill(`imp.${tag}`);
    const list = page.getByRole('table', { name: 'Admin Users' });
    await expect(list.getByRole('row')).toHaveCount(7);
    for (const n of [1, 2, 3, 4, 5, 6])
      await expect(list.getByRole('cell', { name: user(n).email, exact: true })).toHaveCount(1);

    await expectOneInvitationEach([1, 2, 3, 4, 5, 6].map((n) => user(n).email));
  });

  test('positions, by the super administrator into an organization: the rest imported, none twice', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const tag = randomUUID().slice(0, 8);
    const title = (n: number) => `Imported ${tag} role ${n}`;
    const row = (n: number, overrides: { location?: string; openings?: string } = {}) => [
      title(n),
      'Engineering',
      overrides.location ?? 'Pune',
      overrides.openings ?? String(n),
    ];
    await login(page);
    await openImport(page, '/dashboard/positions', 'Import positions', 'positions');
    await checkTemplates(page, 'positions', POSITION_IMPORT_COLUMNS);

    const fileName = `positions-${tag}.csv`;
    await upload(page, fileName, [
      ['Job title', 'Group', 'Location', 'Openings'],
      row(1),
      row(2),
      row(3, { openings: '0' }),
      row(4),
      row(5, { location: '' }),
    ]);
    await expect(headerFor(page, 'Title')).toHaveText('Job title');
    await mapByHand(page, 'Department', 'Group');
    // The super administrator says whose positions these are.
    await page.getByRole('button', { name: 'Check file' }).click();
    await expect(page.getByText(messages.users.organizationRequired)).toBeVisible();
    const organization = page.getByRole('combobox', { name: /Organization/ });
    await organization.fill(plan.admin.client);
    await page.getByRole('option', { name: plan.admin.client, exact: true }).click();
    await page.getByRole('button', { name: 'Check file' }).click();

    await expectSummary(page, ['3 to create', '2 rows with errors']);
    await expectErrors(page, [
      [4, 'Openings', messages.positions.openingsInvalid],
      [6, 'Location', messages.positions.locationRequired],
    ]);
    const errorFile = await downloadErrorRows(page, POSITION_IMPORT_COLUMNS);
    expect(errorFile.rows.map((r) => r.slice(0, 4))).toEqual([
      row(3, { openings: '0' }),
      row(5, { location: '' }),
    ]);

    await commit(page, 3, 3);

    const fixedName = `positions-${tag}-fixed.csv`;
    await newImport(page, 'positions', fileName, '3 created');
    await upload(page, fixedName, [
      errorFile.header,
      [...row(3), errorFile.rows[0]![4]!],
      [...row(5), errorFile.rows[1]![4]!],
      [...row(4), ''],
    ]);
    await organization.fill(plan.admin.client);
    await page.getByRole('option', { name: plan.admin.client, exact: true }).click();
    await page.getByRole('button', { name: 'Check file' }).click();
    await expectSummary(page, ['2 to create', '1 unchanged', '0 rows with errors']);
    await commit(page, 2, 2, 1);

    await page.getByRole('link', { name: 'Go to Positions' }).click();
    await expect(page).toHaveURL(/\/dashboard\/positions$/);
    await page.getByRole('textbox', { name: messages.positions.search }).fill(`Imported ${tag}`);
    const list = page.getByRole('table', { name: 'Positions' });
    await expect(list.getByRole('row')).toHaveCount(6);
    for (const n of [1, 2, 3, 4, 5]) {
      const position = list.getByRole('row').filter({ has: page.getByRole('cell', { name: title(n) }) });
      await expect(position).toHaveCount(1);
      await expect(position).toContainText(plan.admin.client);
    }
  });

  test('organizations, by the super administrator: each a company with its admin invited once', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const tag = randomUUID().slice(0, 8);
    const org = (n: number) => ({
      company: `Imported Co ${tag} ${n}`,
      username: `impadmin.${tag}.${n}`,
      email: `impadmin.${tag}.${n}@acme.test`,
    });
    const row = (n: number, overrides: { email?: string; credits?: string } = {}) => [
      org(n).company,
      org(n).username,
      overrides.email ?? org(n).email,
      `91234567${n}0`,
      overrides.credits ?? '25',
      '150',
      '18',
      'No',
    ];
    await login(page);
    await openImport(page, '/dashboard/usermanagement', 'Import organizations', 'organizations');
    await checkTemplates(page, 'organizations', ORGANIZATION_IMPORT_COLUMNS);

    const fileName = `organizations-${tag}.csv`;
    await upload(page, fileName, [
      [
        'Company',
        'Admin username',
        'E-mail address',
        'Admin mobile',
        'Seats',
        'Price per credit',
        'GST %',
        'Auto-renewal',
      ],
      row(1),
      row(2, { credits: 'ten' }),
      row(3),
      row(4),
      row(5, { email: 'nobody-at-acme' }),
    ]);
    // Each row is its own organization: none to choose.
    await expect(page.getByRole('combobox', { name: /^Organization/ })).toHaveCount(0);
    await expect(headerFor(page, 'Admin email')).toHaveText('E-mail address');
    await expect(headerFor(page, 'GSTIN')).toHaveText('Not in the file');
    await mapByHand(page, 'Credits', 'Seats');
    await page.getByRole('button', { name: 'Check file' }).click();

    await expectSummary(page, ['3 to create', '2 rows with errors']);
    const creditsRule = ORGANIZATION_IMPORT_COLUMNS.find((c) => c.key === 'credits')!.rule;
    await expectErrors(page, [
      [3, 'Credits', creditsRule],
      [6, 'Admin email', messages.users.invalidEmail],
    ]);
    const errorFile = await downloadErrorRows(page, ORGANIZATION_IMPORT_COLUMNS);
    expect(errorFile.rows.map((r) => r.slice(0, 8))).toEqual([
      row(2, { credits: 'ten' }),
      row(5, { email: 'nobody-at-acme' }),
    ]);

    await commit(page, 3, 3);

    const fixedName = `organizations-${tag}-fixed.csv`;
    await newImport(page, 'organizations', fileName, '3 created');
    const fixed = (n: number, error: string) => {
      const cells = [...row(n)];
      return [...cells, '', '', error];
    };
    await upload(page, fixedName, [
      errorFile.header,
      fixed(2, errorFile.rows[0]![10]!),
      fixed(5, errorFile.rows[1]![10]!),
      fixed(1, ''),
    ]);
    await page.getByRole('button', { name: 'Check file' }).click();
    await expectSummary(page, ['2 to create', '1 unchanged', '0 rows with errors']);
    await commit(page, 2, 2, 1);

    await page.getByRole('link', { name: 'Go to Admin Users' }).click();
    await page.getByRole('textbox', { name: 'Search admin users...' }).fill(`impadmin.${tag}`);
    const list = page.getByRole('table', { name: 'Admin Users' });
    await expect(list.getByRole('row')).toHaveCount(6);
    for (const n of [1, 2, 3, 4, 5])
      await expect(list.getByRole('cell', { name: org(n).email, exact: true })).toHaveCount(1);

    await expectOneInvitationEach([1, 2, 3, 4, 5].map((n) => org(n).email));
  });

  test('a member whose role lacks IMPORT sees no Import button', async ({ page }) => {
    await login(page, plan.member.email, plan.member.password);
    await page.goto('/dashboard/positions');
    // The role may add positions, not import them.
    await expect(page.getByRole('button', { name: messages.positions.addPosition })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Import positions' })).toHaveCount(0);
    await page.goto('/dashboard/usermanagement');
    await expect(page.getByRole('heading', { name: messages.users.title })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Import / })).toHaveCount(0);
  });
});
