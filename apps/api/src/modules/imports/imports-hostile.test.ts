/**
 * Hostile uploads get a clear 4xx and change nothing: not a spreadsheet, a disguised file, over the
 * size limit, a ZIP bomb, rows past the limit (refused quickly).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, messages, SCOPES } from '@portal/shared';
import { createRole, createTenant, type TestTenant } from '../../../test/fixtures.js';
import {
  createOrganizationDirect,
  createTestApp,
  LONG_MODE,
  tableFingerprint,
  type TestContext,
} from '../../../test/harness.js';
import { DOCX_BYTES, EXE_BYTES, PDF_BYTES, PNG_BYTES, ZIP_BYTES } from '../../../test/upload-fixtures.js';
import { csvOf, deflatedZipOf, HEADER, uploadImport, xlsxOf } from './test-files.js';

let ctx: TestContext;
let importer: TestTenant;
let snapshot: () => Promise<string>;

beforeAll(async () => {
  ctx = await createTestApp();
  const org = await createOrganizationDirect(ctx, 'Hostile Co');
  const roleId = await createRole(ctx, org, 'Importer', { dashboard: ['READ'], users: [...SCOPES] });
  await createRole(ctx, org, 'Member', { dashboard: ['READ'] });
  importer = await createTenant(ctx, 'Importer', { organizationId: org, roleId });
  snapshot = await tableFingerprint(ctx);
});
afterAll(() => ctx.close());

async function refused(file: { name: string; data: Buffer }, status: number, message: string) {
  const before = await snapshot();
  const res = await uploadImport(importer.session, file);
  expect(res.statusCode, `${file.name}: ${res.body.slice(0, 200)}`).toBe(status);
  expect(res.json().message, file.name).toBe(message);
  expect(await snapshot(), `${file.name} changed data`).toBe(before);
}

const manyRows = (count: number) =>
  Array.from({ length: count }, (_, i) => [`u${i}.name`, `u${i}@h.test`, '9876543210', 'Member']);

describe('hostile files', () => {
  it('refuses what is not a spreadsheet, whatever its name says', async () => {
    const notSpreadsheet = messages.imports.notSpreadsheet;
    await refused({ name: 'users.csv', data: PNG_BYTES }, 400, notSpreadsheet);
    await refused({ name: 'users.xlsx', data: EXE_BYTES }, 400, notSpreadsheet);
    await refused({ name: 'users.xlsx', data: PDF_BYTES }, 400, notSpreadsheet);
    // ZIPs that are not workbooks: a Word document and a plain archive.
    await refused({ name: 'users.xlsx', data: DOCX_BYTES }, 400, notSpreadsheet);
    await refused({ name: 'users.xlsx', data: ZIP_BYTES }, 400, notSpreadsheet);
    // Bytes that are not UTF-8 text (Latin-1 here) are no .csv either.
    await refused(
      { name: 'users.csv', data: Buffer.from([0x55, 0x73, 0xe9, 0x72, 0x0a, 0xff, 0xfe]) },
      400,
      notSpreadsheet,
    );
    await refused({ name: 'users.csv', data: Buffer.alloc(0) }, 400, messages.imports.noRows);
    await refused({ name: 'users.csv', data: csvOf([HEADER]) }, 400, messages.imports.noRows);
  });

  it('refuses a file over the size limit with 413', async () => {
    const big = Buffer.concat([csvOf([HEADER]), Buffer.alloc(IMPORT_MAX_BYTES, 0x61)]);
    await refused({ name: 'big.csv', data: big }, 413, messages.imports.fileTooLarge);
  });

  it('stops reading a ZIP bomb at the inflation limit', async () => {
    // 100 MB of one character deflates to about 100 KB; its header declares 1,000 bytes.
    const bomb = deflatedZipOf({
      '[Content_Types].xml': Buffer.from(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
      ),
      'xl/workbook.xml': Buffer.from('<workbook/>'),
      'xl/worksheets/sheet1.xml': Buffer.alloc(100 * 1024 * 1024, 0x20),
    });
    expect(bomb.length).toBeLessThan(IMPORT_MAX_BYTES);
    const started = Date.now();
    await refused({ name: 'bomb.xlsx', data: bomb }, 400, messages.imports.inflatesTooLarge);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses 100,000 rows quickly, having read no more than the limit', async () => {
    const data = csvOf([HEADER, ...manyRows(100_000)]);
    expect(data.length).toBeLessThan(IMPORT_MAX_BYTES);
    const started = Date.now();
    await refused({ name: 'huge.csv', data }, 400, messages.imports.tooManyRows);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('takes exactly the row limit', { timeout: 60_000 }, async () => {
    const res = await uploadImport(importer.session, {
      name: 'limit.csv',
      data: csvOf([HEADER, ...manyRows(IMPORT_MAX_ROWS)]),
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(201);
    expect(res.json().data.counts).toMatchObject({ total: IMPORT_MAX_ROWS, toCreate: IMPORT_MAX_ROWS });
  });

  it.runIf(LONG_MODE)('refuses an .xlsx of 100,000 rows quickly', { timeout: 120_000 }, async () => {
    const data = await xlsxOf([HEADER, ...manyRows(100_000)]);
    const started = Date.now();
    await refused({ name: 'huge.xlsx', data }, 400, messages.imports.tooManyRows);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
