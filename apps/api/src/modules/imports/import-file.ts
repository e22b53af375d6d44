import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import { IMPORT_MAX_INFLATED_BYTES, IMPORT_MAX_ROWS, messages } from '@portal/shared';
import { AppError, badRequest } from '../../lib/errors.js';
import { inflateXlsxEntries, storedZip } from './xlsx-entries.js';

/** A file's first sheet as text: its header row and the rows under it, numbered as in the file. */
export interface SheetTable {
  headers: string[];
  rows: { rowNumber: number; cells: string[] }[];
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const notSpreadsheet = () => badRequest(messages.imports.notSpreadsheet);
const tooManyRows = () => badRequest(messages.imports.tooManyRows);

/**
 * Reads an uploaded .xlsx or .csv, judged by its bytes, never its name or Content-Type: a ZIP that is
 * an Excel workbook, or text that is valid UTF-8 and no other known format. Reading stops at the row
 * past IMPORT_MAX_ROWS, so a file far over the limit is refused after that many rows, not all of them.
 */
export async function readSpreadsheet(data: Buffer): Promise<SheetTable> {
  if (data.length === 0) throw badRequest(messages.imports.noRows);
  const detected = await fileTypeFromBuffer(data);
  if (detected?.mime === XLSX_MIME) return readXlsx(data);
  if (detected) throw notSpreadsheet();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw notSpreadsheet();
  }
  return readCsv(text);
}

/** A cell written by the portal's exports as `'=…` (formula-safe) reads back as the text it was. */
function unneutralize(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

/** Splits rows into the header and the rest, dropping rows with nothing in them. */
function collect(): {
  add(rowNumber: number, cells: string[]): void;
  table(): SheetTable;
} {
  let headers: string[] | null = null;
  const rows: SheetTable['rows'] = [];
  return {
    add(rowNumber, cells) {
      const clean = cells.map(unneutralize);
      if (clean.every((cell) => cell.trim() === '')) return;
      if (headers === null) headers = clean.map((h) => h.trim());
      else {
        if (rows.length === IMPORT_MAX_ROWS) throw tooManyRows();
        rows.push({ rowNumber, cells: clean });
      }
    },
    table() {
      if (headers === null || rows.length === 0) throw badRequest(messages.imports.noRows);
      return { headers, rows };
    },
  };
}

/** The separator of a .csv: a semicolon when its header line has more of them than commas (Excel in many locales). */
function separatorOf(text: string): ',' | ';' {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (c: string) => firstLine.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

async function readCsv(text: string): Promise<SheetTable> {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  const parser = Readable.from([body]).pipe(
    parse({
      delimiter: separatorOf(body),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }),
  );
  const rows = collect();
  let rowNumber = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      rowNumber++;
      rows.add(rowNumber, record);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest(messages.imports.unreadable);
  } finally {
    parser.destroy();
  }
  return rows.table();
}

/** A cell's text as typed: a formula's own text (never its result, never evaluated), a link's text. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const cell = value as Record<string, unknown>;
    if (typeof cell.formula === 'string') return `=${cell.formula}`;
    if (typeof cell.sharedFormula === 'string') return `=${cell.sharedFormula}`;
    if (Array.isArray(cell.richText)) {
      return (cell.richText as { text?: unknown }[])
        .map((r) => (typeof r.text === 'string' ? r.text : ''))
        .join('');
    }
    if (typeof cell.text === 'string') return cell.text;
    if (typeof cell.error === 'string') return cell.error;
  }
  return '';
}

const sheetNumber = (name: string) => Number(/^xl\/worksheets\/sheet(\d+)\.xml$/.exec(name)?.[1] ?? NaN);

async function readXlsx(data: Buffer): Promise<SheetTable> {
  const entries = await inflateXlsxEntries(data, IMPORT_MAX_INFLATED_BYTES);
  const sheets = [...entries.keys()].filter((name) => !Number.isNaN(sheetNumber(name)));
  const wanted = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml'];
  const ordered = [...wanted, ...sheets.sort((a, b) => sheetNumber(a) - sheetNumber(b))]
    .filter((name) => entries.has(name))
    .map((name) => [name, entries.get(name)!] as const);
  if (sheets.length === 0) throw badRequest(messages.imports.unreadable);

  const input = Readable.from([storedZip(ordered)]);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const rows = collect();
  try {
    for await (const worksheet of reader) {
      for await (const row of worksheet) {
        const values = (row as ExcelJS.Row).values as unknown[];
        // Sparse: a blank cell is a hole, which Array.from reads as undefined.
        rows.add((row as ExcelJS.Row).number, Array.from(values.slice(1), cellText));
      }
      // The first sheet is the data; the template's second sheet holds the rules.
      break;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest(messages.imports.unreadable);
  } finally {
    input.destroy();
  }
  return rows.table();
}
