import type { Readable } from 'node:stream';
import type { ImportColumn, ImportKind } from '@portal/shared';
import {
  streamSpreadsheet,
  streamWorkbook,
  type SheetColumn,
  type SpreadsheetFormat,
} from '../../lib/spreadsheet.js';
import type { RowValues } from './import-columns.js';
import { IMPORT_HANDLERS } from './import-kinds.js';
import type { ErrorFileRow } from './imports.service.js';

const SHEET_NAMES: Record<ImportKind, string> = {
  users: 'Users',
  positions: 'Positions',
  organizations: 'Organizations',
};

function valueColumns(kind: ImportKind): SheetColumn<RowValues>[] {
  return IMPORT_HANDLERS[kind].columns.map((c) => ({
    header: c.label,
    width: c.key.includes('email') ? 32 : 20,
    value: (row: RowValues) => row[c.key] ?? '',
  }));
}

async function* oneRow<T>(row: T) {
  yield row;
}

/**
 * A kind's template: the columns with an example row; in an .xlsx, a second sheet "Rules" gives each
 * column's rule. A .csv has no place for them (a comment line would be read as a record), so it
 * holds the columns and the example only.
 */
export function importTemplate(kind: ImportKind, format: SpreadsheetFormat): Readable {
  const { columns } = IMPORT_HANDLERS[kind];
  const example: RowValues = Object.fromEntries(columns.map((c) => [c.key, c.example]));
  const name = SHEET_NAMES[kind];
  if (format === 'csv') {
    return streamSpreadsheet({ format, sheetName: name, columns: valueColumns(kind), rows: oneRow(example) });
  }
  return streamWorkbook<[RowValues, ImportColumn]>([
    { name, columns: valueColumns(kind), rows: [example] },
    {
      name: 'Rules',
      columns: [
        { header: 'Column', width: 18, value: (c) => c.label },
        { header: 'Rule', width: 100, value: (c) => (c.optional ? `Optional. ${c.rule}` : c.rule) },
      ],
      rows: columns,
    },
  ]);
}

/**
 * The rows with errors as uploaded, plus an "Error" column, to fix and upload again: the headers are
 * the template's, so the file maps itself. Text is written formula-safe; the import reads it back.
 */
export function errorsSheet(
  kind: ImportKind,
  format: SpreadsheetFormat,
  rows: AsyncIterable<ErrorFileRow>,
): Readable {
  const columns: SheetColumn<ErrorFileRow>[] = [
    ...valueColumns(kind).map((c) => ({ ...c, value: (row: ErrorFileRow) => c.value(row.values) })),
    { header: 'Error', width: 80, value: (row) => row.error },
  ];
  return streamSpreadsheet({ format, sheetName: 'Errors', columns, rows });
}
