import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import {
  FEATURES,
  IMPORT_KIND_FEATURE,
  SCOPES,
  type FeatureKey,
  type ImportKind,
  type Scope,
} from '@portal/shared';
import { multipartBody } from '../../../test/upload-fixtures.js';

/** Files for the import tests (and the bench): workbooks, CSV text, and a ZIP whose entries are deflated. */

/** A test's Session (test/harness.ts), kept structural so the bench can import this file. */
interface Session {
  get(url: string): Promise<LightMyRequestResponse>;
  post(
    url: string,
    payload?: unknown,
    options?: { headers: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
}

export const HEADER = ['Username', 'Email', 'Mobile', 'Role'];

export async function xlsxOf(rows: unknown[][], sheetName = 'Users'): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export function csvOf(rows: string[][], separator = ','): Buffer {
  return Buffer.from(rows.map((r) => r.join(separator)).join('\r\n') + '\r\n');
}

/** A ZIP of deflated entries, as a bomb is made: tiny on disk, huge once inflated. */
export function deflatedZipOf(entries: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name);
    const packed = deflateRawSync(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    // A bomb may declare any size: this one declares a small one.
    central.writeUInt32LE(1_000, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** POST /api/auth/imports/users with a file and the form's fields. */
export function uploadImport(
  session: Session,
  file: { name: string; data: Buffer },
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return uploadImportOf('users', session, file, fields);
}

/** POST /api/auth/imports/:kind (the dry run), or `/columns` with `path: 'columns'`. */
export function uploadImportOf(
  kind: ImportKind,
  session: Session,
  file: { name: string; data: Buffer },
  fields: Record<string, string> = {},
  path: '' | 'columns' = '',
): Promise<LightMyRequestResponse> {
  const { payload, headers } = multipartBody(fields, file);
  return session.post(`/api/auth/imports/${kind}${path ? `/${path}` : ''}`, payload, { headers });
}

/** Reads an .xlsx download's first sheet as rows of text. */
export async function sheetRows(data: Buffer, sheet = 1): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[sheet - 1]!.eachRow((row) => {
    rows.push(
      (row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))),
    );
  });
  return rows;
}

/** Every scope of every feature but the kind's IMPORT: a member who may do everything else. */
export function everyScopeButImport(kind: ImportKind): Partial<Record<FeatureKey, Scope[]>> {
  const feature = IMPORT_KIND_FEATURE[kind];
  return Object.fromEntries(
    (Object.keys(FEATURES) as FeatureKey[]).map((f) => [
      f,
      f === feature ? SCOPES.filter((s) => s !== 'IMPORT') : [...SCOPES],
    ]),
  );
}

/**
 * The statuses of a kind's six routes as `session` asks them: the template, a dry run of `file`,
 * the history, and the import `importId`, its errors file and its commit.
 */
export async function importRouteStatuses(
  kind: ImportKind,
  session: Session,
  importId: string,
  file: { name: string; data: Buffer },
): Promise<number[]> {
  const base = `/api/auth/imports/${kind}`;
  const answers = [
    await session.get(`${base}/template`),
    await uploadImportOf(kind, session, file),
    await session.get(base),
    await session.get(`${base}/${importId}`),
    await session.get(`${base}/${importId}/errors`),
    await session.post(`${base}/${importId}/commit`),
  ];
  return answers.map((a) => a.statusCode);
}
