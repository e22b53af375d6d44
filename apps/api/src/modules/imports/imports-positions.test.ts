/**
 * The positions import: the template, every kind of row error with its row, column and the position
 * form's message, the errors file's round trip, the commit through the job as the Add and Edit dialogs
 * do it, matching by title (skip or update), IMPORT on Position Management, and tenancy.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importDuplicateInFile,
  messages,
  POSITION_IMPORT_COLUMNS,
  SCOPES,
  type ImportDetail,
  type ImportSummary,
} from '@portal/shared';
import { createRole, createTenant, type TestTenant } from '../../../test/fixtures.js';
import {
  createOrganizationDirect,
  createTestApp,
  signIn,
  tableFingerprint,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { multipartBody } from '../../../test/upload-fixtures.js';
import { systemActor } from '../../core/actor.js';
import { activityEntries, emailOutbox, imports, notifications, positions } from '../../db/schema/index.js';
import { runImportCommit } from './import-commit.service.js';
import { csvOf, everyScopeButImport, importRouteStatuses, sheetRows, xlsxOf } from './test-files.js';

const HEADER = ['Title', 'Department', 'Location', 'Openings'];

let ctx: TestContext;
let orgA: string;
let orgB: string;
let importerA: TestTenant;
let importerB: TestTenant;
let root: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  orgA = await createOrganizationDirect(ctx, 'Positions Co');
  orgB = await createOrganizationDirect(ctx, 'Other Positions Co');
  const grants = { dashboard: ['READ' as const], positions: [...SCOPES] };
  importerA = await createTenant(ctx, 'Pos Importer A', {
    organizationId: orgA,
    roleId: await createRole(ctx, orgA, 'Position importer', grants),
  });
  importerB = await createTenant(ctx, 'Pos Importer B', {
    organizationId: orgB,
    roleId: await createRole(ctx, orgB, 'Position importer', grants),
  });
  root = await signIn(ctx.app);
});
afterAll(() => ctx.close());

/** POST /api/auth/imports/positions with a file and the form's fields. */
function upload(
  session: Session,
  file: { name: string; data: Buffer },
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const { payload, headers } = multipartBody(fields, file);
  return session.post('/api/auth/imports/positions', payload, { headers });
}

const detailOf = (res: { json(): { data: ImportDetail } }) => res.json().data;

async function dryRun(session: Session, name: string, data: Buffer, fields: Record<string, string> = {}) {
  const res = await upload(session, { name, data }, fields);
  expect(res.statusCode, res.body).toBe(201);
  return detailOf(res);
}

/** Commits a dry run and waits for its job (and anything it queued) to end. */
async function commit(session: Session, id: string): Promise<ImportDetail> {
  const res = await session.post(`/api/auth/imports/positions/${id}/commit`);
  expect(res.statusCode, res.body).toBe(202);
  await ctx.app.deps.jobs.settled();
  return detailOf(await session.get(`/api/auth/imports/positions/${id}`));
}

/** A position inserted as the screen would have it, for a scenario. */
async function addPosition(
  organizationId: string,
  title: string,
  values: Partial<typeof positions.$inferInsert> = {},
) {
  const [row] = await ctx.database.db
    .insert(positions)
    .values({ organizationId, title, department: 'Engineering', location: 'Pune', openings: 2, ...values })
    .returning({ id: positions.id });
  return row!.id;
}

async function positionsTitled(organizationId: string, titles: string[]) {
  return ctx.database.db
    .select()
    .from(positions)
    .where(and(eq(positions.organizationId, organizationId), inArray(positions.title, titles)));
}

async function countPositions() {
  const [row] = await ctx.database.db.select({ n: sql<number>`count(*)` }).from(positions);
  return Number(row!.n);
}

describe('template', () => {
  it('is the columns and an example row; the .xlsx adds each column’s rule on a second sheet', async () => {
    const xlsx = await importerA.session.get('/api/auth/imports/positions/template?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain('positions-import-template.xlsx');
    expect(await sheetRows(xlsx.rawPayload)).toEqual([HEADER, POSITION_IMPORT_COLUMNS.map((c) => c.example)]);
    expect(await sheetRows(xlsx.rawPayload, 2)).toEqual([
      ['Column', 'Rule'],
      ...POSITION_IMPORT_COLUMNS.map((c) => [c.label, c.rule]),
    ]);
    const csv = await importerA.session.get('/api/auth/imports/positions/template?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toBe(
      `\ufeff${HEADER.join(',')}\r\n${POSITION_IMPORT_COLUMNS.map((c) => c.example).join(',')}\r\n`,
    );
  });

  it('imports as it is downloaded (the example row is valid), in either format', async () => {
    for (const format of ['xlsx', 'csv']) {
      const template = await importerA.session.get(`/api/auth/imports/positions/template?format=${format}`);
      const detail = await dryRun(importerA.session, `template.${format}`, template.rawPayload);
      expect(detail.errors).toEqual([]);
      expect(detail.counts).toMatchObject({ total: 1, toCreate: 1, errors: 0 });
    }
  });
});

describe('dry run', () => {
  const long = 'x'.repeat(121);
  /** One row each (after two valid rows), with the column and the message it must get. */
  const cases: { cells: (string | number)[]; column: string; message: string }[] = [
    { cells: ['', 'Sales', 'Pune', '1'], column: 'Title', message: messages.positions.titleRequired },
    { cells: ['   ', 'Sales', 'Pune', '1'], column: 'Title', message: messages.positions.titleRequired },
    { cells: [long, 'Sales', 'Pune', '1'], column: 'Title', message: messages.positions.tooLong },
    {
      cells: ['Clerk', '', 'Pune', '1'],
      column: 'Department',
      message: messages.positions.departmentRequired,
    },
    { cells: ['Clerk 2', long, 'Pune', '1'], column: 'Department', message: messages.positions.tooLong },
    {
      cells: ['Clerk 3', 'Sales', '', '1'],
      column: 'Location',
      message: messages.positions.locationRequired,
    },
    { cells: ['Clerk 4', 'Sales', long, '1'], column: 'Location', message: messages.positions.tooLong },
    {
      cells: ['Clerk 5', 'Sales', 'Pune', ''],
      column: 'Openings',
      message: messages.positions.openingsInvalid,
    },
    {
      cells: ['Clerk 6', 'Sales', 'Pune', 'three'],
      column: 'Openings',
      message: messages.positions.openingsInvalid,
    },
    {
      cells: ['Clerk 7', 'Sales', 'Pune', '2.5'],
      column: 'Openings',
      message: messages.positions.openingsInvalid,
    },
    {
      cells: ['Clerk 8', 'Sales', 'Pune', '0'],
      column: 'Openings',
      message: messages.positions.openingsInvalid,
    },
    {
      cells: ['Clerk 9', 'Sales', 'Pune', '-3'],
      column: 'Openings',
      message: messages.positions.openingsInvalid,
    },
    {
      cells: ['Clerk 10', 'Sales', 'Pune', '1e2'],
      column: 'Openings',
      message: messages.positions.openingsInvalid,
    },
    {
      cells: ['Clerk 11', 'Sales', 'Pune', 1001],
      column: 'Openings',
      message: messages.positions.openingsTooMany,
    },
    {
      cells: ['Clerk 12', 'Sales', 'Pune', '=1+1'],
      column: 'Openings',
      message: messages.positions.openingsInvalid,
    },
    // Repeats the first valid row's title, in another case.
    {
      cells: ['DATA ANALYST', 'Sales', 'Pune', '1'],
      column: 'Title',
      message: importDuplicateInFile('Title', 2),
    },
    // Two positions of the organization share this title: the row cannot be matched to one.
    {
      cells: ['Twin Role', 'Sales', 'Pune', '1'],
      column: 'Title',
      message: messages.imports.positionTitleAmbiguous,
    },
  ];

  it('reports every error with its row, column and the form’s message, and creates nothing', async () => {
    await addPosition(orgA, 'Twin Role');
    await addPosition(orgA, 'twin role');
    const before = await countPositions();
    // Openings as a number cell and as "3.0" text (as some tools write a number) are both whole numbers.
    const valid = [
      ['Data Analyst', 'Analytics', 'Mumbai', 4],
      ['Tester', 'Quality', 'Chennai', '3.0'],
    ];
    const data = await xlsxOf([HEADER, ...valid, ...cases.map((c) => c.cells)], 'Positions');
    const detail = await dryRun(importerA.session, 'many-errors.xlsx', data);
    expect(detail.status).toBe('dry_run');
    expect(detail.errors).toEqual(
      cases.map((c, i) => ({ row: i + 4, column: c.column, message: c.message })),
    );
    expect(detail.counts).toEqual({
      total: cases.length + 2,
      toCreate: 2,
      toUpdate: 0,
      unchanged: 0,
      errors: cases.length,
    });
    expect(await countPositions()).toBe(before);
  });

  it('refuses NUL and control characters with the shared message and the column’s rule, and takes the others', async () => {
    const data = csvOf([
      HEADER,
      ['Nul\u0000Title', 'Sales', 'Pune', '1'],
      ['Control Title', 'Sal\u0001es', 'Pune', '1'],
      ['Clean Title', 'Sales', 'Pune', '1'],
    ]);
    const detail = await dryRun(importerA.session, 'controls.csv', data);
    expect(detail.errors).toEqual([
      { row: 2, column: 'Title', message: messages.http.unstorableText },
      { row: 3, column: 'Department', message: POSITION_IMPORT_COLUMNS[1].rule },
    ]);
    expect(detail.counts).toMatchObject({ toCreate: 1, errors: 2 });
  });

  it('reads a .csv with semicolons and other headers, and takes a mapping', async () => {
    const rows = [
      ['Job title', 'Dept', 'City', 'Seats'],
      ['Csv Role', 'Support', 'Delhi', '2'],
    ];
    const data = csvOf(rows, ';');
    const unmapped = await upload(importerA.session, { name: 'roles.csv', data });
    expect(unmapped.statusCode).toBe(400);
    expect(unmapped.json().message).toContain('Openings');
    const mapped = await dryRun(importerA.session, 'roles.csv', data, {
      mapping: JSON.stringify({ openings: 'Seats' }),
    });
    expect(mapped.counts).toMatchObject({ total: 1, toCreate: 1, errors: 0 });
    const badMatch = await upload(importerA.session, { name: 'roles.csv', data }, { matchBy: 'department' });
    expect(badMatch.statusCode).toBe(400);
  });

  it('matches existing positions by title without case: unchanged, or to update only when asked', async () => {
    await addPosition(orgA, 'Kept Role', { department: 'Ops', location: 'Goa', openings: 5 });
    const same = csvOf([HEADER, ['kept role', 'Ops', 'Goa', '5']]);
    const changed = csvOf([HEADER, ['KEPT ROLE', 'Ops', 'Goa', '6']]);
    expect(
      (await dryRun(importerA.session, 'same.csv', same, { onExisting: 'update' })).counts,
    ).toMatchObject({
      unchanged: 1,
      toUpdate: 0,
      toCreate: 0,
    });
    expect((await dryRun(importerA.session, 'changed.csv', changed)).counts).toMatchObject({
      unchanged: 1,
      toUpdate: 0,
      toCreate: 0,
    });
    expect(
      (await dryRun(importerA.session, 'changed.csv', changed, { onExisting: 'update' })).counts,
    ).toMatchObject({ unchanged: 0, toUpdate: 1, toCreate: 0 });
    // Another organization's position of that title is nothing to this one.
    const elsewhere = await dryRun(importerB.session, 'same.csv', same);
    expect(elsewhere.counts).toMatchObject({ toCreate: 1, unchanged: 0 });
  });
});

describe('commit', () => {
  it('creates each valid row as the Add Position dialog does, then records the import and a notice', async () => {
    const outboxBefore = await ctx.database.db.select({ id: emailOutbox.id }).from(emailOutbox);
    const data = csvOf([
      HEADER,
      ['Made One', 'Engineering', 'Bengaluru', '3'],
      [' Made Two ', ' Design ', ' Remote ', ' 1 '],
      ['Made Three', 'Engineering', 'Bengaluru', 'many'],
    ]);
    const dry = await dryRun(importerA.session, 'team.csv', data);
    expect(dry.counts).toMatchObject({ toCreate: 2, errors: 1 });
    const queued = await importerA.session.post(`/api/auth/imports/positions/${dry.id}/commit`);
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json().message).toBe(messages.imports.committed);
    const twice = await importerA.session.post(`/api/auth/imports/positions/${dry.id}/commit`);
    expect(twice.statusCode).toBe(409);
    await ctx.app.deps.jobs.settled();
    const done = detailOf(await importerA.session.get(`/api/auth/imports/positions/${dry.id}`));
    expect(done.status).toBe('done');
    expect(done.progress).toEqual({ done: 2, total: 2 });
    expect(done.results).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0 });

    const made = await positionsTitled(orgA, ['Made One', 'Made Two', 'Made Three']);
    expect(
      made
        .map((p) => ({
          title: p.title,
          department: p.department,
          location: p.location,
          openings: p.openings,
        }))
        .sort((a, b) => a.title.localeCompare(b.title)),
    ).toEqual([
      { title: 'Made One', department: 'Engineering', location: 'Bengaluru', openings: 3 },
      { title: 'Made Two', department: 'Design', location: 'Remote', openings: 1 },
    ]);
    expect(made.every((p) => p.status === 'Open' && p.createdBy === importerA.userId)).toBe(true);
    // The dialog's activity entry for each position, by the importer.
    const entries = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(
        and(
          eq(activityEntries.entityType, 'position'),
          inArray(
            activityEntries.entityId,
            made.map((p) => p.id),
          ),
        ),
      );
    expect(entries.map((e) => e.message).sort()).toEqual([
      'Position "Made One" created (3 openings)',
      'Position "Made Two" created (1 opening)',
    ]);
    expect(entries.every((e) => e.action === 'created' && e.actorUserId === importerA.userId)).toBe(true);
    // Creating a position sends no mail on the screen, nor here.
    expect(await ctx.database.db.select({ id: emailOutbox.id }).from(emailOutbox)).toHaveLength(
      outboxBefore.length,
    );
    const [entry] = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityType, 'import'), eq(activityEntries.entityId, dry.id)));
    expect(entry!.message).toContain('positions');
    expect(entry!.message).toContain('team.csv: 2 created, 0 updated, 0 failed.');
    const notices = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, importerA.userId), eq(notifications.kind, 'import_finished')));
    expect(notices.map((n) => n.body)).toContain('team.csv: 2 created, 0 updated, 0 failed.');
  });

  it('updates an existing position with onExisting update (its title kept), and leaves it with skip', async () => {
    const id = await addPosition(orgA, 'Support Lead', {
      department: 'Support',
      location: 'Pune',
      openings: 1,
    });
    const changed = csvOf([HEADER, ['support lead', 'Customer Care', 'Nagpur', '4']]);
    const skipped = await dryRun(importerA.session, 'lead.csv', changed);
    expect(skipped.counts).toMatchObject({ unchanged: 1, toUpdate: 0 });
    expect(
      (await importerA.session.post(`/api/auth/imports/positions/${skipped.id}/commit`)).statusCode,
    ).toBe(409);

    const dry = await dryRun(importerA.session, 'lead.csv', changed, { onExisting: 'update' });
    expect(dry.counts).toMatchObject({ toUpdate: 1, toCreate: 0 });
    const done = await commit(importerA.session, dry.id);
    expect(done.results).toEqual({ created: 0, updated: 1, unchanged: 0, failed: 0 });
    const [position] = await ctx.database.db.select().from(positions).where(eq(positions.id, id));
    expect(position).toMatchObject({
      title: 'Support Lead',
      department: 'Customer Care',
      location: 'Nagpur',
      openings: 4,
    });
    const updates = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityId, id), eq(activityEntries.action, 'updated')));
    expect(updates.map((e) => [e.message, e.actorUserId])).toEqual([
      ['Position "Support Lead" updated', importerA.userId],
    ]);
    // The same file again: nothing left to change.
    const again = await dryRun(importerA.session, 'lead.csv', changed, { onExisting: 'update' });
    expect(again.counts).toMatchObject({ unchanged: 1, toUpdate: 0 });
  });

  it('records a row whose title was taken meanwhile as failed, and never creates it twice', async () => {
    const data = csvOf([HEADER, ['Race Role', 'Ops', 'Pune', '1'], ['Calm Role', 'Ops', 'Pune', '1']]);
    const first = await dryRun(importerA.session, 'race.csv', data);
    const second = await dryRun(importerA.session, 'race.csv', data);
    // Someone adds "Race Role" on the screen between the dry runs and the commits.
    const added = await importerA.session.post('/api/auth/positions', {
      title: 'race role',
      department: 'Ops',
      location: 'Pune',
      openings: 1,
    });
    expect(added.statusCode, added.body).toBe(201);
    const done = await commit(importerA.session, first.id);
    expect(done.results).toMatchObject({ created: 1, failed: 1 });
    expect(done.errors).toEqual([{ row: 2, column: 'Row', message: messages.imports.positionTitleTaken }]);
    // The second dry run of the same file, committed after the first: both rows are taken now.
    const after = await commit(importerA.session, second.id);
    expect(after.results).toMatchObject({ created: 0, failed: 2 });
    expect(await positionsTitled(orgA, ['Race Role', 'race role', 'Calm Role'])).toHaveLength(2);
  });

  it('two imports of one file committed at the same moment create each title once', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [`Twin Run ${i}`, 'Ops', 'Pune', '1']);
    const data = csvOf([HEADER, ...rows]);
    const one = await dryRun(importerA.session, 'twin.csv', data);
    const two = await dryRun(importerA.session, 'twin.csv', data);
    // Both committed, their jobs' runs side by side (as two workers would take them).
    await ctx.database.db
      .update(imports)
      .set({ status: 'running', committedBy: importerA.userId })
      .where(inArray(imports.id, [one.id, two.id]));
    const system = systemActor('job:imports.commit');
    await Promise.all([
      runImportCommit(ctx.app.deps, system, { importId: one.id }),
      runImportCommit(ctx.app.deps, system, { importId: two.id }),
    ]);
    const made = await positionsTitled(
      orgA,
      rows.map((r) => r[0]!),
    );
    expect(made).toHaveLength(30);
    const results = await Promise.all(
      [one.id, two.id].map(
        async (id) => detailOf(await importerA.session.get(`/api/auth/imports/positions/${id}`)).results,
      ),
    );
    expect(results.reduce((n, r) => n + r.created, 0)).toBe(30);
    expect(results.reduce((n, r) => n + r.failed, 0)).toBe(30);
  });
});

describe('errors file', () => {
  it('round-trips: fixed and uploaded again, it imports the rest, and a re-run creates nothing twice', async () => {
    const data = await xlsxOf(
      [
        HEADER,
        ['Round One', 'Sales', 'Pune', 2],
        ['Round Two', 'Sales', 'Pune', 'two'],
        ['=HYPERLINK("x")', '', 'Pune', 1],
      ],
      'Positions',
    );
    const first = await dryRun(importerA.session, 'round.xlsx', data);
    expect(first.counts).toMatchObject({ toCreate: 1, errors: 2 });
    await commit(importerA.session, first.id);

    const csv = await importerA.session.get(`/api/auth/imports/positions/${first.id}/errors?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(`"'=HYPERLINK(""x"")"`);
    const xlsx = await importerA.session.get(`/api/auth/imports/positions/${first.id}/errors?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const rows = await sheetRows(xlsx.rawPayload);
    expect(rows[0]).toEqual([...HEADER, 'Error']);
    // An empty cell is a hole in exceljs's row values.
    expect(rows.slice(1).map((r) => Array.from(r.slice(0, 4), (v) => v ?? ''))).toEqual([
      ['Round Two', 'Sales', 'Pune', 'two'],
      [`'=HYPERLINK("x")`, '', 'Pune', '1'],
    ]);
    expect(rows[1]![4]).toBe(`Openings: ${messages.positions.openingsInvalid}`);
    expect(rows[2]![4]).toBe(`Department: ${messages.positions.departmentRequired}`);

    // Fixed in the downloaded file, with the finished first row added back: it is not created again.
    const fixed = await xlsxOf(
      [
        [...HEADER, 'Error'],
        ['Round One', 'Sales', 'Pune', '2', ''],
        ['Round Two', 'Sales', 'Pune', '2', rows[1]![4]!],
        ['Round Three', 'Sales', 'Pune', '1', rows[2]![4]!],
      ],
      'Errors',
    );
    const second = await dryRun(importerA.session, 'round-fixed.xlsx', fixed);
    expect(second.counts).toMatchObject({ toCreate: 2, unchanged: 1, errors: 0 });
    expect((await commit(importerA.session, second.id)).results).toMatchObject({ created: 2, failed: 0 });
    const made = await positionsTitled(orgA, ['Round One', 'Round Two', 'Round Three']);
    expect(made.map((p) => p.title).sort()).toEqual(['Round One', 'Round Three', 'Round Two']);

    const again = await dryRun(importerA.session, 'round-fixed.xlsx', fixed);
    expect(again.counts).toMatchObject({ toCreate: 0, unchanged: 3, errors: 0 });
    const nothing = await importerA.session.post(`/api/auth/imports/positions/${again.id}/commit`);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe(messages.imports.nothingToCommit);
  });
});

describe('IMPORT on Position Management', () => {
  it('refuses a member holding every other scope (users IMPORT too) with 403 on every route, and changes nothing', async () => {
    const grants = everyScopeButImport('positions');
    const member = await createTenant(ctx, 'No position import', {
      organizationId: orgA,
      roleId: await createRole(ctx, orgA, 'No position import', grants),
    });
    const mine = await dryRun(importerA.session, 'mine.csv', csvOf([HEADER, ['Mine', 'Ops', 'Pune', '1']]));
    const snapshot = await tableFingerprint(ctx);
    const before = await snapshot();
    expect(
      await importRouteStatuses('positions', member.session, mine.id, {
        name: 'x.csv',
        data: csvOf([HEADER, ['X', 'Ops', 'Pune', '1']]),
      }),
    ).toEqual([403, 403, 403, 403, 403, 403]);
    expect(await snapshot()).toBe(before);
  });
});

describe('tenancy', () => {
  it('keeps each organization to its own imports; another’s answers 404, naming another organization too', async () => {
    const a = await dryRun(
      importerA.session,
      'tenant-a.csv',
      csvOf([HEADER, ['Tenant A', 'Ops', 'Pune', '1']]),
    );
    const b = await dryRun(
      importerB.session,
      'tenant-b.csv',
      csvOf([HEADER, ['Tenant B', 'Ops', 'Pune', '1']]),
    );
    const names = async (s: Session) =>
      ((await s.get('/api/auth/imports/positions?pageSize=100')).json().data as ImportSummary[]).map(
        (i) => i.fileName,
      );
    expect(await names(importerB.session)).not.toContain('tenant-a.csv');
    expect(await names(importerB.session)).toContain('tenant-b.csv');
    expect(await names(root)).toEqual(expect.arrayContaining(['tenant-a.csv', 'tenant-b.csv']));
    for (const url of [`/api/auth/imports/positions/${a.id}`, `/api/auth/imports/positions/${a.id}/errors`]) {
      expect((await importerB.session.get(url)).statusCode).toBe(404);
    }
    expect((await importerB.session.post(`/api/auth/imports/positions/${a.id}/commit`)).statusCode).toBe(404);
    expect(await positionsTitled(orgA, ['Tenant A'])).toHaveLength(0);
    // A positions import is no users import.
    expect((await root.get(`/api/auth/imports/users/${b.id}`)).statusCode).toBe(404);
    const foreign = await upload(
      importerB.session,
      { name: 'x.csv', data: csvOf([HEADER, ['Foreign', 'Ops', 'Pune', '1']]) },
      { organizationId: orgA },
    );
    expect(foreign.statusCode).toBe(404);
  });

  it('lets the super administrator import into a named organization, as the screen lets them create there', async () => {
    const data = csvOf([HEADER, ['Platform Made', 'Ops', 'Pune', '2']]);
    const dry = await dryRun(root, 'for-b.csv', data, { organizationId: orgB });
    expect(dry.organizationId).toBe(orgB);
    expect((await commit(root, dry.id)).results).toMatchObject({ created: 1, failed: 0 });
    expect(await positionsTitled(orgB, ['Platform Made'])).toHaveLength(1);
    expect(await positionsTitled(orgA, ['Platform Made'])).toHaveLength(0);
    // Visible to organization B's importer as its own import.
    expect((await importerB.session.get(`/api/auth/imports/positions/${dry.id}`)).statusCode).toBe(200);
    // The same file into B again: the title is there now.
    expect((await dryRun(root, 'for-b.csv', data, { organizationId: orgB })).counts).toMatchObject({
      toCreate: 0,
      unchanged: 1,
    });
  });
});
