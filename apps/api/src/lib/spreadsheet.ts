import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { formatDateTime, istDate, istWallClock } from '@portal/shared';

/**
 * Exports of lists as filtered ("Export To Excel"), made on the server: an .xlsx or a .csv written
 * row by row into a stream, so an export of any size never sits whole in memory. Times are India
 * Standard Time, as on every screen: date cells (sortable) in a .xlsx, the portal's text in a .csv.
 */
export type SpreadsheetFormat = 'xlsx' | 'csv';
export type CellValue = string | number | Date | null | undefined;

export interface SheetColumn<T> {
  header: string;
  width?: number;
  value: (row: T) => CellValue;
}

/**
 * A text cell that a spreadsheet program would read as a formula (=, +, -, @, tab, carriage return)
 * gets a leading apostrophe, as OWASP's "CSV injection" advice says. Numbers and dates are left alone.
 */
export function neutralizeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function spreadsheetContentType(format: SpreadsheetFormat): string {
  return format === 'xlsx'
    ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
    : 'text/csv; charset=utf-8';
}

/** `tickets-2025-01-31.xlsx`, dated by the day in India. */
export function spreadsheetFileName(base: string, format: SpreadsheetFormat, now = new Date()): string {
  return `${base}-${istDate(now)}.${format}`;
}

/** `Content-Disposition` for a download, with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachmentDisposition(fileName: string, disposition: 'attachment' | 'inline' = 'attachment') {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function csvField(value: CellValue): string {
  if (value === null || value === undefined) return '';
  const text =
    value instanceof Date
      ? formatDateTime(value)
      : typeof value === 'number'
        ? String(value)
        : neutralizeCell(value);
  return /[",\r\n]/.test(text) || text.startsWith("'") ? `"${text.replaceAll('"', '""')}"` : text;
}

function xlsxValue(value: CellValue): string | number | Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return istWallClock(value);
  return typeof value === 'string' ? neutralizeCell(value) : value;
}

/** Excel's spelling of the portal's date-time ('25 Nov 2026, 1:11 am'); Excel writes AM/PM in capitals. */
const XLSX_DATE_TIME = 'd mmm yyyy, h:mm AM/PM';

async function writeCsv<T>(out: PassThrough, columns: readonly SheetColumn<T>[], rows: AsyncIterable<T>) {
  const write = async (line: string) => {
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', resolve));
  };
  // The byte-order mark makes Excel read the file as UTF-8.
  await write(`\ufeff${columns.map((c) => csvField(c.header)).join(',')}\r\n`);
  for await (const row of rows) {
    await write(`${columns.map((c) => csvField(c.value(row))).join(',')}\r\n`);
  }
  out.end();
}

/** One sheet of a workbook: its rows are read and written one at a time. */
export interface WorkbookSheet<T> {
  name: string;
  columns: readonly SheetColumn<T>[];
  rows: AsyncIterable<T> | Iterable<T>;
}

async function writeXlsx(out: PassThrough, sheets: readonly WorkbookSheet<unknown>[]) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  for (const { name, columns, rows } of sheets) {
    const sheet = workbook.addWorksheet(name.slice(0, 31));
    sheet.columns = columns.map((c, i) => ({
      header: c.header,
      key: `c${i}`,
      width: c.width ?? 20,
      style: {},
    }));
    sheet.getRow(1).font = { bold: true };
    for await (const row of rows) {
      const values = columns.map((c) => xlsxValue(c.value(row)));
      const added = sheet.addRow(values);
      values.forEach((v, i) => {
        if (v instanceof Date) added.getCell(i + 1).numFmt = XLSX_DATE_TIME;
      });
      added.commit();
    }
    sheet.commit();
  }
  await workbook.commit();
}

/**
 * Starts writing `rows` as a spreadsheet and returns the stream to send. A failure while reading the
 * rows destroys the stream, so the client sees a broken download rather than a truncated file.
 */
export function streamSpreadsheet<T>(options: {
  format: SpreadsheetFormat;
  sheetName: string;
  columns: readonly SheetColumn<T>[];
  rows: AsyncIterable<T>;
}): Readable {
  if (options.format === 'xlsx') {
    return streamWorkbook([{ name: options.sheetName, columns: options.columns, rows: options.rows }]);
  }
  const out = new PassThrough();
  failStreamOnError(out, writeCsv(out, options.columns, options.rows));
  return out;
}

/** An .xlsx of several sheets (a tax register), written as `streamSpreadsheet` writes one. */
export function streamWorkbook<T extends unknown[]>(sheets: {
  [K in keyof T]: WorkbookSheet<T[K]>;
}): Readable {
  const out = new PassThrough();
  failStreamOnError(out, writeXlsx(out, sheets as readonly WorkbookSheet<unknown>[]));
  return out;
}

function failStreamOnError(out: PassThrough, job: Promise<void>) {
  job.catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
}
