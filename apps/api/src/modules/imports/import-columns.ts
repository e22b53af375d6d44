import {
  importColumnMissing,
  importDuplicateInFile,
  messages,
  type ImportColumn,
  type ImportMapping,
} from '@portal/shared';
import { badRequest } from '../../lib/errors.js';
import { isStorableText } from '../../plugins/text-guard.js';
import type { SheetTable } from './import-file.js';

/** A row's values by column key, as the file had them. */
export type RowValues = Record<string, string>;
/** A file row under the header, its number as in the file (the header is row 1). */
export interface ImportRow {
  rowNumber: number;
  values: RowValues;
}
export interface CellError {
  column: string;
  message: string;
}

/** Headers compared without case, spaces, underscores or hyphens. */
const squash = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, '');

/** The header each column matches by itself: its label, or one of the other names people give it. */
function matchedIndex(squashed: readonly string[], column: ImportColumn, aliases: readonly string[]) {
  return squashed.findIndex((h) => h === squash(column.label) || aliases.includes(h));
}

/**
 * Each column's header as matched automatically (its label, case- and space-insensitive, or an
 * alias), or null: what the mapping screen starts from.
 */
export function suggestedMapping(
  headers: readonly string[],
  columns: readonly ImportColumn[],
  aliases: Readonly<Record<string, readonly string[]>>,
): Record<string, string | null> {
  const squashed = headers.map(squash);
  return Object.fromEntries(
    columns.map((c) => {
      const index = matchedIndex(squashed, c, aliases[c.key] ?? []);
      return [c.key, index < 0 ? null : headers[index]!];
    }),
  );
}

/**
 * Each column's index in the file (-1: an optional column the file does not have, or mapped to
 * null): the header `mapping` names for it, else the header that matches it. A mapping naming an unknown column or a
 * header not in the file, or a required column left unmatched, is a 400 naming it.
 */
export function mapColumns(
  headers: readonly string[],
  mapping: ImportMapping,
  columns: readonly ImportColumn[],
  aliases: Readonly<Record<string, readonly string[]>>,
): Record<string, number> {
  const known = new Set(columns.map((c) => c.key));
  const unknown = Object.keys(mapping).find((key) => !known.has(key));
  if (unknown !== undefined) {
    throw badRequest(messages.imports.invalidMapping, { mapping: [messages.imports.invalidMapping] });
  }
  const squashed = headers.map(squash);
  const found: Record<string, number> = {};
  for (const column of columns) {
    const named = mapping[column.key];
    // null: the importer says the file has no such column, which only an optional one may lack.
    if (named === null) {
      if (!column.optional) {
        throw badRequest(importColumnMissing(column.label), {
          [column.key]: [importColumnMissing(column.label)],
        });
      }
      found[column.key] = -1;
      continue;
    }
    const index =
      named !== undefined
        ? squashed.indexOf(squash(named))
        : matchedIndex(squashed, column, aliases[column.key] ?? []);
    if (index < 0 && (named !== undefined || !column.optional)) {
      throw badRequest(
        named !== undefined ? messages.imports.invalidMapping : importColumnMissing(column.label),
        { [column.key]: [importColumnMissing(column.label)] },
      );
    }
    found[column.key] = index;
  }
  return found;
}

/** The headers each column was read from, as stored with the import (absent optional columns left out). */
export function mappedHeaders(
  headers: readonly string[],
  found: Record<string, number>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(found)
      .filter(([, index]) => index >= 0)
      .map(([key, index]) => [key, headers[index] ?? '']),
  );
}

/** The rows of a table with their values by column ('' for a column the file lacks). */
export function tableRows(table: SheetTable, found: Record<string, number>): ImportRow[] {
  const entries = Object.entries(found);
  return table.rows.map((row) => ({
    rowNumber: row.rowNumber,
    values: Object.fromEntries(
      entries.map(([key, index]) => [key, index < 0 ? '' : (row.cells[index] ?? '')]),
    ),
  }));
}

/** Storable in the database's text and jsonb: NUL dropped, lone surrogates replaced, cut to 1,000 characters. */
export function storableValues(values: RowValues): RowValues {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, v.replaceAll('\u0000', '').toWellFormed().slice(0, 1_000)]),
  );
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * A row's errors collected once per column (the first found is the one reported), under the
 * columns' labels; text the database cannot store and control characters are checked first.
 */
export class RowErrors {
  readonly errors: CellError[] = [];
  private readonly failed = new Set<string>();
  private readonly labels: Map<string, string>;

  constructor(columns: readonly ImportColumn[]) {
    this.labels = new Map(columns.map((c) => [c.key, c.label]));
  }

  fail(key: string, message: string): void {
    if (this.failed.has(key)) return;
    this.failed.add(key);
    this.errors.push({ column: this.labels.get(key) ?? key, message });
  }

  has(key: string): boolean {
    return this.failed.has(key);
  }

  /** A later row repeating an earlier one's value of a unique column: its error, else remembered. */
  checkRepeat(key: string, value: string, seen: Map<string, number>, rowNumber: number): void {
    if (!value) return;
    const earlier = seen.get(value);
    if (earlier !== undefined) this.fail(key, importDuplicateInFile(this.labels.get(key) ?? key, earlier));
    else seen.set(value, rowNumber);
  }

  get any(): boolean {
    return this.errors.length > 0;
  }

  /** NUL or an unpaired surrogate (as the text guard answers), other control characters (the column's rule). */
  checkText(values: RowValues, columns: readonly ImportColumn[]): void {
    for (const column of columns) {
      const value = values[column.key] ?? '';
      if (!isStorableText(value)) this.fail(column.key, messages.http.unstorableText);
      else if (CONTROL.test(value)) this.fail(column.key, column.rule);
    }
  }

  /** A zod failure's issues, each under the column its field came from. */
  addIssues(
    issues: readonly { path: readonly PropertyKey[]; message: string }[],
    columnOf: Record<string, string>,
  ) {
    for (const issue of issues) {
      const column = columnOf[String(issue.path.join('.'))] ?? columnOf[String(issue.path[0])];
      if (column) this.fail(column, issue.message);
    }
  }
}

/** Values to look up in the database: trimmed, non-empty, storable (NUL is its row's error, never a parameter). */
export function lookupValues(values: readonly string[]): string[] {
  return values.map((v) => v.trim()).filter((v) => v && isStorableText(v));
}
