import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERVIEW_BOT_PRODUCT_NAME, type User } from '@portal/shared';
import { users } from '../../db/schema/index.js';
import {
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { createRole } from '../../../test/fixtures.js';

let ctx: TestContext;
let root: Session;
let adminA: Session;
let orgA: string;
let orgB: string;

const HEADERS = [
  'ID',
  'Username',
  'Full Name',
  'Email',
  'Mobile Number',
  'Client',
  'Organization ID',
  'Role',
  'Products',
  'Status',
  'Invite',
  'Created At',
  'Updated At',
];

/** Texts a spreadsheet would run as formulas, each stored in a user's full name or client. */
const HOSTILE = ['=HYPERLINK("http://evil.test","x")', '+1+2', '-3+4', '@SUM(A1)', '\tTAB', '\rCR'];

beforeAll(async () => {
  ctx = await createTestApp();
  const adminRoleId = await roleIdByName(ctx);
  orgA = await createOrganizationDirect(ctx, 'Org A');
  orgB = await createOrganizationDirect(ctx, 'Org B');
  const viewer = await createRole(ctx, orgA, 'Viewer', { dashboard: ['READ'] });
  const rows: (typeof users.$inferInsert)[] = [];
  for (let i = 0; i < 1_205; i++) {
    rows.push({
      organizationId: orgA,
      roleId: i % 5 === 0 ? viewer : adminRoleId,
      username: `alpha${String(i).padStart(4, '0')}`,
      email: `alpha${i}@a.test`,
      fullName: i < HOSTILE.length ? HOSTILE[i]! : `Alpha ${i}`,
      client: i === 1 ? 'Quote "Co", Ltd' : 'Alpha Hiring',
      mobileNo: '9876543210',
      isActive: i % 7 !== 0,
      passwordHash: 'x',
    });
  }
  for (let i = 0; i < 20; i++) {
    rows.push({
      organizationId: orgB,
      roleId: adminRoleId,
      username: `beta${i}`,
      email: `beta${i}@b.test`,
      client: '=cmd|calc',
      passwordHash: 'x',
    });
  }
  await ctx.database.db.insert(users).values(rows);
  await createUserDirect(ctx, { email: 'boss@a.test', roleId: adminRoleId, organizationId: orgA });
  root = await signIn(ctx.app);
  adminA = await signIn(ctx.app, 'boss@a.test', STRONG_PASSWORD);
});
afterAll(() => ctx.close());

async function download(session: Session, query: string) {
  const res = await session.get(`/api/auth/users/export?${query}`);
  expect(res.statusCode).toBe(200);
  return res;
}

async function readXlsx(body: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const out: string[][] = [];
  sheet.eachRow((row) => {
    const values = (row.values as unknown[]).slice(1);
    out.push(
      HEADERS.map((_, i) => {
        const v = values[i];
        return v instanceof Date ? v.toISOString() : v === undefined || v === null ? '' : String(v);
      }),
    );
  });
  return out;
}

/** RFC 4180 reader: quoted fields, doubled quotes, CRLF rows. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

async function listAll(session: Session, query: string): Promise<User[]> {
  const all: User[] = [];
  for (let page = 1; ; page++) {
    const res = await session.get(`/api/auth/users?${query}&pageSize=100&page=${page}`);
    const body = res.json() as { data: User[]; meta: { total: number } };
    all.push(...body.data);
    if (all.length >= body.meta.total) return all;
  }
}

describe('GET /api/auth/users/export', () => {
  it('streams an .xlsx that exceljs reads back with exactly the filtered rows, in list order', async () => {
    const query = 'role=admin&status=active&search=alpha&sort=username&order=desc';
    const res = await download(root, query);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(HEADERS);
    const expected = await listAll(root, query);
    // More than one export batch (1,000 rows), so batching is exercised.
    expect(expected.length).toBeGreaterThan(800);
    expect(rows.slice(1).map((r) => r[0])).toEqual(expected.map((u) => u.id));
    const sample = rows.find((r) => r[1] === 'alpha0011')!;
    const user = expected.find((u) => u.username === 'alpha0011')!;
    expect(sample).toEqual([
      user.id,
      'alpha0011',
      'Alpha 11',
      'alpha11@a.test',
      '9876543210',
      'Alpha Hiring',
      orgA,
      'admin',
      INTERVIEW_BOT_PRODUCT_NAME,
      'Active',
      'Accepted',
      expect.any(String),
      expect.any(String),
    ]);
    // A date cell holds India's wall-clock time (a spreadsheet has no time zones).
    expect(new Date(sample[11]!).getTime()).toBe(new Date(user.createdAt).getTime() + 330 * 60_000);
  });

  it('writes every matching row, not one page', async () => {
    const rows = await readXlsx((await download(root, `organizationId=${orgA}`)).rawPayload);
    expect(rows.length - 1).toBe(1_206);
  });

  it('neutralises every cell a spreadsheet would read as a formula, in xlsx and csv', async () => {
    const xlsx = await readXlsx((await download(root, 'search=alpha000&sort=username&order=asc')).rawPayload);
    const names = xlsx.slice(1, 1 + HOSTILE.length).map((r) => r[2]);
    // XML turns a stored carriage return into a line feed when read back; the quote is what matters.
    expect(names).toEqual(HOSTILE.map((h) => `'${h.replace('\r', '\n')}`));
    const csvRes = await download(root, 'search=alpha000&sort=username&order=asc&format=csv');
    expect(csvRes.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csvRes.headers['content-disposition']).toMatch(/filename="users-.*\.csv"/);
    const csv = readCsv(csvRes.body.replace(/^\uFEFF/, ''));
    expect(csv[0]).toEqual(HEADERS);
    expect(csv.slice(1, 1 + HOSTILE.length).map((r) => r[2])).toEqual(HOSTILE.map((h) => `'${h}`));
    // A comma and quotes survive the round trip.
    expect(csv.find((r) => r[1] === 'alpha0001')![5]).toBe('Quote "Co", Ltd');
    // Times as the screens show them: '25 Nov 2026, 1:11 am' in India Standard Time.
    expect(csv.find((r) => r[1] === 'alpha0001')![11]).toMatch(
      /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m$/,
    );
    const beta = readCsv(
      (await download(root, `organizationId=${orgB}&format=csv`)).body.replace(/^\uFEFF/, ''),
    );
    expect(beta.slice(1).every((r) => r[5] === "'=cmd|calc")).toBe(true);
    expect(beta).toHaveLength(21);
  });

  it('writes a CSV with exactly the filtered rows', async () => {
    const query = 'status=inactive&sort=email&order=asc';
    const csv = readCsv((await download(root, `${query}&format=csv`)).body.replace(/^\uFEFF/, ''));
    const expected = await listAll(root, query);
    expect(csv.slice(1).map((r) => r[0])).toEqual(expected.map((u) => u.id));
    expect(csv.slice(1).every((r) => r[9] === 'Inactive')).toBe(true);
  });

  it('exports only the tenant’s own users; naming another organization answers 404', async () => {
    const rows = await readXlsx((await download(adminA, 'format=xlsx')).rawPayload);
    expect(rows.length - 1).toBe(1_206);
    expect(rows.slice(1).every((r) => r[6] === orgA)).toBe(true);
    const foreign = await adminA.get(`/api/auth/users/export?organizationId=${orgB}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.headers['content-disposition']).toBeUndefined();
  });

  it('needs User Management EXPORT (403)', async () => {
    const reader = await createRole(ctx, orgA, 'Reader', { users: ['READ'] });
    await createUserDirect(ctx, { email: 'reader@a.test', roleId: reader, organizationId: orgA });
    const s = await signIn(ctx.app, 'reader@a.test', STRONG_PASSWORD);
    expect((await s.get('/api/auth/users/export')).statusCode).toBe(403);
    expect((await root.get('/api/auth/users/export?format=pdf')).statusCode).toBe(400);
  });
});
