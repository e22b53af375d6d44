import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyBaseLogger } from 'fastify';
import { INTERVIEW_BOT_PRODUCT_NAME, type User } from '@portal/shared';

/**
 * Leading characters that make a spreadsheet read a cell as a formula (CSV/formula injection,
 * OWASP "CSV Injection"). Such a cell gets a leading single quote, so it stays text.
 */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

export function neutralizeCell(value: string): string {
  return value.length > 0 && FORMULA_TRIGGERS.has(value[0]!) ? `'${value}` : value;
}

interface Column {
  header: string;
  width: number;
  value: (u: User) => string | Date;
}

const inviteLabel = (u: User) =>
  u.inviteStatus === 'accepted' ? 'Accepted' : u.inviteStatus === 'pending' ? 'Pending' : 'Expired';

export const USER_EXPORT_COLUMNS: readonly Column[] = [
  { header: 'ID', width: 38, value: (u) => u.id },
  { header: 'Username', width: 24, value: (u) => u.username },
  { header: 'Full Name', width: 24, value: (u) => u.fullName ?? '' },
  { header: 'Email', width: 32, value: (u) => u.email },
  { header: 'Mobile Number', width: 16, value: (u) => u.mobileNo ?? '' },
  { header: 'Client', width: 28, value: (u) => u.client ?? '' },
  { header: 'Organization ID', width: 38, value: (u) => u.organizationId },
  { header: 'Role', width: 16, value: (u) => u.role.name },
  { header: 'Products', width: 20, value: () => INTERVIEW_BOT_PRODUCT_NAME },
  { header: 'Status', width: 10, value: (u) => (u.isActive ? 'Active' : 'Inactive') },
  { header: 'Invite', width: 10, value: inviteLabel },
  { header: 'Created At', width: 20, value: (u) => new Date(u.createdAt) },
  { header: 'Updated At', width: 20, value: (u) => new Date(u.updatedAt) },
];

function cells(u: User): (string | Date)[] {
  return USER_EXPORT_COLUMNS.map((c) => {
    const v = c.value(u);
    return typeof v === 'string' ? neutralizeCell(v) : v;
  });
}

function csvField(value: string | Date): string {
  const text = value instanceof Date ? value.toISOString() : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV (RFC 4180, CRLF), with a byte-order mark so spreadsheet programs read it as UTF-8. */
export function usersCsvStream(batches: AsyncIterable<User[]>): Readable {
  async function* lines() {
    yield `\uFEFF${USER_EXPORT_COLUMNS.map((c) => csvField(c.header)).join(',')}\r\n`;
    for await (const batch of batches) {
      yield batch.map((u) => `${cells(u).map(csvField).join(',')}\r\n`).join('');
    }
  }
  return Readable.from(lines());
}

/** An .xlsx written row by row with exceljs' streaming writer, so memory stays flat at any size. */
export function usersXlsxStream(batches: AsyncIterable<User[]>, log: FastifyBaseLogger): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Users');
  sheet.columns = USER_EXPORT_COLUMNS.map((c, i) => ({
    header: c.header,
    key: `c${i}`,
    width: c.width,
    ...(c.header.endsWith(' At') ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  void (async () => {
    try {
      for await (const batch of batches) {
        for (const u of batch) sheet.addRow(cells(u)).commit();
      }
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      log.error({ err: error }, 'user export failed');
      out.destroy(error as Error);
    }
  })();
  return out;
}
