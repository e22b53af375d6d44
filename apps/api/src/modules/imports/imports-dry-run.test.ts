/**
 * The users import's dry run: the template, mapping, every kind of row error with its row, column and
 * the shared message, the errors file and its round trip, and IMPORT enforced on every route.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importColumnMissing,
  importDuplicateInFile,
  messages,
  SCOPES,
  USER_IMPORT_COLUMNS,
  type FeatureKey,
  type ImportDetail,
  type Scope,
} from '@portal/shared';
import { createRole, createTenant, type TestTenant } from '../../../test/fixtures.js';
import {
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  tableFingerprint,
  type TestContext,
} from '../../../test/harness.js';
import { emailOutbox, importRows, users } from '../../db/schema/index.js';
import {
  csvOf,
  everyScopeButImport,
  HEADER,
  importRouteStatuses,
  sheetRows,
  uploadImport,
  uploadImportOf,
  xlsxOf,
} from './test-files.js';

let ctx: TestContext;
let orgA: string;
let importer: TestTenant;
let importerRole: string;
/** A role of tenant A wider than the importer's (Organization Management CREATE). */
const WIDE_ROLE = 'Wide';
const otherOrgUser = { email: 'taken@elsewhere.test', username: 'taken.elsewhere' };

/** Every scope of users and dashboard READ: an importer who is not an admin. */
const IMPORTER_GRANTS: Partial<Record<FeatureKey, Scope[]>> = {
  dashboard: ['READ'],
  users: [...SCOPES],
};

beforeAll(async () => {
  ctx = await createTestApp();
  orgA = await createOrganizationDirect(ctx, 'Import Co');
  importerRole = await createRole(ctx, orgA, 'Importer', IMPORTER_GRANTS);
  await createRole(ctx, orgA, 'Member', { dashboard: ['READ'] });
  await createRole(ctx, orgA, WIDE_ROLE, { organizations: ['CREATE'] });
  importer = await createTenant(ctx, 'Importer', { organizationId: orgA, roleId: importerRole });
  const orgB = await createOrganizationDirect(ctx, 'Elsewhere Co');
  const memberB = await createRole(ctx, orgB, 'Member', { dashboard: ['READ'] });
  await createUserDirect(ctx, { ...otherOrgUser, roleId: memberB, organizationId: orgB });
});
afterAll(() => ctx.close());

const detailOf = (res: { json(): { data: ImportDetail } }) => res.json().data;

describe('template', () => {
  it('is the columns and an example row; the .xlsx adds each column’s rule on a second sheet', async () => {
    const xlsx = await importer.session.get('/api/auth/imports/users/template?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    const data = xlsx.rawPayload;
    expect(await sheetRows(data)).toEqual([HEADER, USER_IMPORT_COLUMNS.map((c) => c.example)]);
    expect(await sheetRows(data, 2)).toEqual([
      ['Column', 'Rule'],
      ...USER_IMPORT_COLUMNS.map((c) => [c.label, c.rule]),
    ]);
    const csv = await importer.session.get('/api/auth/imports/users/template?format=csv');
    expect(csv.body).toBe(
      `\ufeff${HEADER.join(',')}\r\n${USER_IMPORT_COLUMNS.map((c) => c.example).join(',')}\r\n`,
    );
  });

  it('imports as it is downloaded (the example row is valid)', async () => {
    const template = await importer.session.get('/api/auth/imports/users/template?format=xlsx');
    const res = await uploadImport(importer.session, { name: 'template.xlsx', data: template.rawPayload });
    expect(res.statusCode, res.body).toBe(201);
    // The example's role is the system admin role, wider than the importer's own.
    expect(detailOf(res).errors).toEqual([{ row: 2, column: 'Role', message: messages.roles.scopeNotHeld }]);
  });
});

describe('dry run', () => {
  /** Twenty kinds of error, one row each (the first row is valid), with what each must say. */
  const existingEmail = 'existing@import.test';
  const longEmail = `${'a'.repeat(250)}@x.co`;
  const cases: { cells: string[]; column: string; message: string }[] = [
    {
      cells: ['', 'e1@import.test', '9876543210', 'Member'],
      column: 'Username',
      message: messages.users.invalidUsername,
    },
    {
      cells: ['ab', 'e2@import.test', '9876543210', 'Member'],
      column: 'Username',
      message: messages.users.invalidUsername,
    },
    {
      cells: ['a b c', 'e3@import.test', '9876543210', 'Member'],
      column: 'Username',
      message: messages.users.invalidUsername,
    },
    {
      cells: ['u'.repeat(51), 'e4@import.test', '9876543210', 'Member'],
      column: 'Username',
      message: messages.users.invalidUsername,
    },
    { cells: ['user5', '', '9876543210', 'Member'], column: 'Email', message: messages.users.invalidEmail },
    {
      cells: ['user6', 'not-an-email', '9876543210', 'Member'],
      column: 'Email',
      message: messages.users.invalidEmail,
    },
    {
      cells: ['user7', longEmail, '9876543210', 'Member'],
      column: 'Email',
      message: messages.users.invalidEmail,
    },
    {
      cells: ['user8', 'e8@import.test', '987654321', 'Member'],
      column: 'Mobile',
      message: messages.users.invalidMobile,
    },
    {
      cells: ['user9', 'e9@import.test', '98765432101', 'Member'],
      column: 'Mobile',
      message: messages.users.invalidMobile,
    },
    {
      cells: ['user10', 'e10@import.test', 'abcdefghij', 'Member'],
      column: 'Mobile',
      message: messages.users.invalidMobile,
    },
    {
      cells: ['user11', 'e11@import.test', '9876543210', ''],
      column: 'Role',
      message: messages.imports.roleRequired,
    },
    {
      cells: ['user12', 'e12@import.test', '9876543210', 'Astronaut'],
      column: 'Role',
      message: messages.imports.unknownRole,
    },
    {
      cells: ['user13', 'e13@import.test', '9876543210', WIDE_ROLE],
      column: 'Role',
      message: messages.roles.scopeNotHeld,
    },
    {
      cells: ['user14', 'ok1@import.test', '9876543210', 'Member'],
      column: 'Email',
      message: importDuplicateInFile('Email', 2),
    },
    {
      cells: ['valid.one', 'e15@import.test', '9876543210', 'Member'],
      column: 'Username',
      message: importDuplicateInFile('Username', 2),
    },
    {
      cells: ['user16', otherOrgUser.email, '9876543210', 'Member'],
      column: 'Email',
      message: messages.users.duplicate,
    },
    {
      cells: [otherOrgUser.username, 'e17@import.test', '9876543210', 'Member'],
      column: 'Username',
      message: messages.users.duplicate,
    },
    {
      cells: ['user18', 'e18@import.test', '', 'Member'],
      column: 'Mobile',
      message: messages.users.invalidMobile,
    },
    {
      cells: ['user19', 'e19@import.test', '9876543210', 'super_admin'],
      column: 'Role',
      message: messages.imports.unknownRole,
    },
    {
      cells: ['=CONCAT("a","b")', 'e20@import.test', '9876543210', 'Member'],
      column: 'Username',
      message: messages.users.invalidUsername,
    },
    // The importer's own record, to update with another role: nobody changes their own role.
    {
      cells: ['importer.self', existingEmail, '9876543210', 'Member'],
      column: 'Role',
      message: messages.users.cannotChangeOwnRole,
    },
  ];

  it('reports every error with its row, column and the shared message, and creates nothing', async () => {
    // The importer's own email stands for an existing user of the organization.
    await ctx.database.db.update(users).set({ email: existingEmail }).where(eq(users.id, importer.userId));
    const usersBefore = await ctx.database.db.select({ id: users.id }).from(users);
    const outboxBefore = await ctx.database.db.select({ id: emailOutbox.id }).from(emailOutbox);
    const valid = ['valid.one', 'ok1@import.test', '9876543210', 'member'];
    const data = await xlsxOf([HEADER, valid, ...cases.map((c) => c.cells)]);
    const res = await uploadImport(
      importer.session,
      { name: 'many-errors.xlsx', data },
      { onExisting: 'update' },
    );
    expect(res.statusCode, res.body).toBe(201);
    const detail = detailOf(res);
    expect(detail.status).toBe('dry_run');
    expect(detail.errors).toEqual(
      cases.map((c, i) => ({ row: i + 3, column: c.column, message: c.message })),
    );
    expect(detail.counts).toEqual({
      total: cases.length + 1,
      toCreate: 1,
      toUpdate: 0,
      unchanged: 0,
      errors: cases.length,
    });
    expect(detail.errors).toEqual(
      cases.map((c, i) => ({ row: i + 3, column: c.column, message: c.message })),
    );
    expect(detail.errorsTruncated).toBe(false);
    // A formula's text is kept as text, never its result.
    const [formulaRow] = await ctx.database.db
      .select({ values: importRows.values })
      .from(importRows)
      .where(and(eq(importRows.importId, detail.id), eq(importRows.rowNumber, cases.length + 1)));
    expect(formulaRow!.values.username).toBe('=CONCAT("a","b")');
    expect(await ctx.database.db.select({ id: users.id }).from(users)).toHaveLength(usersBefore.length);
    expect(await ctx.database.db.select({ id: emailOutbox.id }).from(emailOutbox)).toHaveLength(
      outboxBefore.length,
    );
  });

  it('refuses a row holding NUL or a control character with the shared message, and takes the others', async () => {
    const data = csvOf([
      HEADER,
      ['nul\u0000name', 'n1@import.test', '9876543210', 'Member'],
      ['ctl.name', 'n2\u0001@import.test', '9876543210', 'Member'],
      ['clean.name', 'n3@import.test', '9876543210', 'Member'],
    ]);
    const res = await uploadImport(importer.session, { name: 'controls.csv', data });
    expect(res.statusCode, res.body).toBe(201);
    const detail = detailOf(res);
    expect(detail.errors).toEqual([
      { row: 2, column: 'Username', message: messages.http.unstorableText },
      { row: 3, column: 'Email', message: messages.users.invalidEmail },
    ]);
    expect(detail.counts).toMatchObject({ toCreate: 1, errors: 2 });
  });

  it('reads a .csv with a byte-order mark and semicolons, maps headers by name, and takes a mapping', async () => {
    const rows = [
      ['E-MAIL ADDRESS', ' user name ', 'Phone', 'Job'],
      ['csv1@import.test', 'csv.one', '9876543210', 'Member'],
    ];
    const data = Buffer.concat([Buffer.from('\ufeff'), csvOf(rows, ';')]);
    const unmapped = await uploadImport(importer.session, { name: 'people.csv', data });
    expect(unmapped.statusCode).toBe(400);
    expect(unmapped.json().message).toContain('Role');
    const res = await uploadImport(
      importer.session,
      { name: 'people.csv', data },
      { mapping: JSON.stringify({ role: 'job', email: 'E-mail address' }) },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(detailOf(res).counts).toMatchObject({ total: 1, toCreate: 1, errors: 0 });
    const badMapping = await uploadImport(
      importer.session,
      { name: 'people.csv', data },
      { mapping: '{not json' },
    );
    expect(badMapping.statusCode).toBe(400);
    expect(badMapping.json().message).toBe(messages.imports.invalidMapping);
  });

  it('lists an existing user of the organization as unchanged (skip) or to update', async () => {
    await createUserDirect(ctx, {
      email: 'kept@import.test',
      username: 'kept.user',
      roleId: importerRole,
      organizationId: orgA,
    });
    const data = csvOf([HEADER, ['kept.user', 'KEPT@import.test', '9876543210', 'Member']]);
    const skip = detailOf(await uploadImport(importer.session, { name: 'kept.csv', data }));
    expect(skip.counts).toMatchObject({ unchanged: 1, toUpdate: 0, errors: 0 });
    const update = detailOf(
      await uploadImport(importer.session, { name: 'kept.csv', data }, { onExisting: 'update' }),
    );
    expect(update.counts).toMatchObject({ unchanged: 0, toUpdate: 1, errors: 0 });
  });
});

describe('errors file', () => {
  it('round-trips: fixed and uploaded again, it imports the rest, and a re-run creates nothing twice', async () => {
    const data = await xlsxOf([
      HEADER,
      ['round.one', 'round1@import.test', '9876543210', 'Member'],
      ['round.two', 'round2@import.test', '12345', 'Member'],
      ['=1+1', 'round3@import.test', '9876543210', 'Member'],
    ]);
    const first = detailOf(await uploadImport(importer.session, { name: 'round.xlsx', data }));
    expect(first.counts).toMatchObject({ toCreate: 1, errors: 2 });
    const commit = await importer.session.post(`/api/auth/imports/users/${first.id}/commit`);
    expect(commit.statusCode, commit.body).toBe(202);
    await ctx.app.deps.jobs.settled();

    const csv = await importer.session.get(`/api/auth/imports/users/${first.id}/errors?format=csv`);
    expect(csv.statusCode).toBe(200);
    // Formula-like text is written with a leading apostrophe, so a spreadsheet shows it as text.
    expect(csv.body).toContain(`"'=1+1"`);
    const xlsx = await importer.session.get(`/api/auth/imports/users/${first.id}/errors?format=xlsx`);
    const rows = await sheetRows(xlsx.rawPayload);
    expect(rows[0]).toEqual([...HEADER, 'Error']);
    expect(rows.slice(1).map((r) => r.slice(0, 4))).toEqual([
      ['round.two', 'round2@import.test', '12345', 'Member'],
      ["'=1+1", 'round3@import.test', '9876543210', 'Member'],
    ]);
    expect(rows[1]![4]).toBe(`Mobile: ${messages.users.invalidMobile}`);

    // Fixed in the downloaded file, with the finished first row added back: it is not created again.
    const fixed = await xlsxOf([
      [...HEADER, 'Error'],
      ['round.one', 'round1@import.test', '9876543210', 'Member', ''],
      ['round.two', 'round2@import.test', '9876543210', 'Member', rows[1]![4]!],
      ['round.three', 'round3@import.test', '9876543210', 'Member', rows[2]![4]!],
    ]);
    const second = detailOf(await uploadImport(importer.session, { name: 'round-fixed.xlsx', data: fixed }));
    expect(second.counts).toMatchObject({ toCreate: 2, unchanged: 1, errors: 0 });
    expect((await importer.session.post(`/api/auth/imports/users/${second.id}/commit`)).statusCode).toBe(202);
    await ctx.app.deps.jobs.settled();
    const made = await ctx.database.db
      .select({ email: users.email })
      .from(users)
      .where(inArray(users.email, ['round1@import.test', 'round2@import.test', 'round3@import.test']));
    expect(made.map((u) => u.email).sort()).toEqual([
      'round1@import.test',
      'round2@import.test',
      'round3@import.test',
    ]);
    const again = detailOf(await uploadImport(importer.session, { name: 'round-fixed.xlsx', data: fixed }));
    expect(again.counts).toMatchObject({ toCreate: 0, unchanged: 3, errors: 0 });
    const nothing = await importer.session.post(`/api/auth/imports/users/${again.id}/commit`);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe(messages.imports.nothingToCommit);
  });
});

describe('IMPORT on every route', () => {
  it('refuses a member holding every other scope with 403, and changes nothing', async () => {
    const grants = everyScopeButImport('users');
    const roleId = await createRole(ctx, orgA, 'No import', grants);
    const member = await createTenant(ctx, 'No import', { organizationId: orgA, roleId });
    const mine = detailOf(
      await uploadImport(importer.session, {
        name: 'mine.csv',
        data: csvOf([HEADER, ['m.one', 'm1@import.test', '9876543210', 'Member']]),
      }),
    );
    const snapshot = await tableFingerprint(ctx);
    const before = await snapshot();
    expect(
      await importRouteStatuses('users', member.session, mine.id, { name: 'x.csv', data: csvOf([HEADER]) }),
    ).toEqual([403, 403, 403, 403, 403, 403]);
    expect(await snapshot()).toBe(before);
  });
});

describe('columns and matching', () => {
  it('names the file’s headers and the header each column matched by itself, storing nothing', async () => {
    const snapshot = await tableFingerprint(ctx);
    const before = await snapshot();
    const data = csvOf([
      ['E-mail address', 'Login', 'Phone', 'Team'],
      ['odd.user@import.test', 'odd.user', '9876543210', 'x'],
    ]);
    const res = await uploadImportOf('users', importer.session, { name: 'odd.csv', data }, {}, 'columns');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      headers: ['E-mail address', 'Login', 'Phone', 'Team'],
      mapping: { username: 'Login', email: 'E-mail address', mobile: 'Phone', role: null },
    });
    expect(await snapshot()).toBe(before);
    // The unmatched column named in a mapping: the dry run reads it from there.
    const mapped = await uploadImport(
      importer.session,
      { name: 'odd.csv', data },
      { mapping: JSON.stringify({ role: 'Team' }) },
    );
    expect(mapped.statusCode, mapped.body).toBe(201);
    expect(detailOf(mapped).mapping).toEqual({
      username: 'Login',
      email: 'E-mail address',
      mobile: 'Phone',
      role: 'Team',
    });
    expect(detailOf(mapped).errors).toEqual([
      { row: 2, column: 'Role', message: messages.imports.unknownRole },
    ]);
  });

  it('refuses a mapping of a column the kind has not, and a match column it does not offer', async () => {
    const data = csvOf([HEADER, ['m.x', 'mx@import.test', '9876543210', 'Member']]);
    const unknown = await uploadImport(
      importer.session,
      { name: 'x.csv', data },
      { mapping: '{"salary":"Role"}' },
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(messages.imports.invalidMapping);
    // "Not in the file" is for optional columns only: users have none.
    const absent = await uploadImport(
      importer.session,
      { name: 'x.csv', data },
      { mapping: '{"role":null}' },
    );
    expect(absent.statusCode).toBe(400);
    expect(absent.json().message).toBe(importColumnMissing('Role'));
    const match = await uploadImport(importer.session, { name: 'x.csv', data }, { matchBy: 'mobile' });
    expect(match.statusCode).toBe(400);
    expect(match.json().errors).toEqual({ matchBy: [messages.imports.invalidMatchBy] });
    const into = await uploadImportOf(
      'users',
      importer.session,
      { name: 'x.csv', data },
      { organizationId: 'nope' },
    );
    expect(into.statusCode).toBe(400);
  });

  it('matches existing users by username when asked: the email may not change, the mobile may', async () => {
    const username = 'match.by.name';
    await createUserDirect(ctx, {
      username,
      email: 'match.by.name@import.test',
      roleId: importerRole,
      organizationId: orgA,
    });
    const rows = [
      HEADER,
      [username, 'match.by.name@import.test', '9123456780', 'Importer'],
      ['new.by.name', 'new.by.name@import.test', '9876543210', 'Member'],
    ];
    const res = await uploadImport(
      importer.session,
      { name: 'by-name.csv', data: csvOf(rows) },
      { matchBy: 'username', onExisting: 'update' },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(detailOf(res)).toMatchObject({
      matchBy: 'username',
      counts: { toCreate: 1, toUpdate: 1, errors: 0 },
    });
    const moved = await uploadImport(
      importer.session,
      { name: 'moved.csv', data: csvOf([HEADER, [username, 'other@import.test', '9123456780', 'Importer']]) },
      { matchBy: 'username', onExisting: 'update' },
    );
    expect(detailOf(moved).errors).toEqual([
      { row: 2, column: 'Email', message: messages.users.emailLocked },
    ]);
  });

  it('answers 404 for an import asked for under another kind', async () => {
    const made = detailOf(
      await uploadImport(importer.session, {
        name: 'kind.csv',
        data: csvOf([HEADER, ['k.one', 'k1@import.test', '9876543210', 'Member']]),
      }),
    );
    const both = await createRole(ctx, orgA, 'Both importer', { ...IMPORTER_GRANTS, positions: ['IMPORT'] });
    const holder = await createTenant(ctx, 'Both importer', { organizationId: orgA, roleId: both });
    expect((await holder.session.get(`/api/auth/imports/users/${made.id}`)).statusCode).toBe(200);
    for (const path of ['', '/errors']) {
      expect((await holder.session.get(`/api/auth/imports/positions/${made.id}${path}`)).statusCode).toBe(
        404,
      );
    }
    expect((await holder.session.post(`/api/auth/imports/positions/${made.id}/commit`)).statusCode).toBe(404);
  });
});
