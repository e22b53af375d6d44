import type { Readable } from 'node:stream';
import { USER_IMPORT_COLUMNS } from '@portal/shared';
import {
  streamSpreadsheet,
  streamWorkbook,
  type SheetColumn,
  type SpreadsheetFormat,
} from '../../lib/spreadsheet.js';
import type { ErrorFileRow } from './imports.service.js';
import type { UserRowValues } from './user-rows.js';

const VALUE_COLUMNS: readonly SheetColumn<UserRowValues>[] = USER_IMPORT_COLUMNS.map((c) => ({
  header: c.label,
  width: c.key === 'email' ? 32 : 20,
  value: (row: UserRowValues) => row[c.key],
}));

const EXAMPLE = Object.fromEntries(USER_IMPORT_COLUMNS.map((c) => [c.key, c.example])) as UserRowValues;

/**
 * The users template: the columns with an example row; in an .xlsx, a second sheet "Rules" gives each
 * column's rule. A .csv has no place for them (a comment line would be read as a user), so it holds
 * the columns and the example only.
 */
export function userTemplate(format: SpreadsheetFormat): Readable {
  if (format === 'csv') {
    return streamSpreadsheet({ format, sheetName: 'Users', columns: VALUE_COLUMNS, rows: oneRow(EXAMPLE) });
  }
  type Rule = (typeof USER_IMPORT_COLUMNS)[number];
  return streamWorkbook<[UserRowValues, Rule]>([
    { name: 'Users', columns: VALUE_COLUMNS, rows: [EXAMPLE] },
    {
      name: 'Rules',
      columns: [
        { header: 'Column', width: 16, value: (c) => c.label },
        { header: 'Rule', width: 100, value: (c) => c.rule },
      ],
      rows: USER_IMPORT_COLUMNS,
    },
  ]);
}

async function* oneRow<T>(row: T) {
  yield row;
}

/**
 * The rows with errors as uploaded, plus an "Error" column, to fix and upload again: the headers are
 * the template's, so the file maps itself. Text is written formula-safe; the import reads it back.
 */
export function errorsSheet(format: SpreadsheetFormat, rows: AsyncIterable<ErrorFileRow>): Readable {
  const columns: SheetColumn<ErrorFileRow>[] = [
    ...VALUE_COLUMNS.map((c) => ({ ...c, value: (row: ErrorFileRow) => c.value(row.values) })),
    { header: 'Error', width: 80, value: (row) => row.error },
  ];
  return streamSpreadsheet({ format, sheetName: 'Errors', columns, rows });
}
