import {
  messages,
  POSITION_IMPORT_COLUMNS,
  positionFormSchema,
  type ImportOnExisting,
  type ImportRowOutcome,
  type Position,
  type PositionForm,
  type PositionImportColumn,
} from '@portal/shared';
import { RowErrors, type ImportRow, type RowValues } from './import-columns.js';
import type { CheckedRow } from './import-kind.js';

/** A positions row's values by column. */
export type PositionRowValues = Record<PositionImportColumn, string>;

/** Other headers people give these columns. */
export const POSITION_ALIASES: Record<PositionImportColumn, string[]> = {
  title: ['title', 'position', 'positiontitle', 'positionname', 'jobtitle', 'job'],
  department: ['department', 'dept', 'team'],
  location: ['location', 'city', 'office', 'joblocation'],
  openings: ['openings', 'vacancies', 'noofopenings', 'numberofopenings', 'headcount'],
};

/** The form's fields, each under the column it is read from. */
const SCHEMA_FIELD: Record<keyof PositionForm, PositionImportColumn> = {
  title: 'title',
  department: 'department',
  location: 'location',
  openings: 'openings',
};

/**
 * Openings as the form's number: a sheet gives text, "3" (or "3.0", as some tools write an .xlsx
 * number) is 3; "2.5" is 2.5, refused by the schema as not whole; anything not a plain decimal
 * ("", "three", "1e2", "-1") is no number at all, refused with the schema's own message too.
 */
function openingsOf(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** A row's values through the position form's schema, as the Add and Edit dialogs send them. */
export function parsePositionRow(values: RowValues) {
  return positionFormSchema.safeParse({
    title: values.title ?? '',
    department: values.department ?? '',
    location: values.location ?? '',
    openings: openingsOf(values.openings ?? ''),
  });
}

/** What every row is checked against. */
export interface PositionRowContext {
  onExisting: ImportOnExisting;
  /** The organization's positions by lowercase title (several when titles repeat). */
  byTitle: Map<string, Position[]>;
  /** Earlier rows' titles (lowercase) → their row numbers. */
  seenTitles: Map<string, number>;
}

/**
 * One row's checks: text the database cannot store, the position form's schema and messages, a
 * title repeated from an earlier row, and the organization's positions by title (without case): none
 * is to create; one is unchanged, or to update when `onExisting` is 'update' and its department,
 * location or openings differ; several cannot be told apart, so the row is an error.
 */
export function checkPositionRow(row: ImportRow, ctx: PositionRowContext): CheckedRow {
  const errors = new RowErrors(POSITION_IMPORT_COLUMNS);
  errors.checkText(row.values, POSITION_IMPORT_COLUMNS);
  const parsed = parsePositionRow(row.values);
  if (!parsed.success) errors.addIssues(parsed.error.issues, SCHEMA_FIELD);

  const title = (row.values.title ?? '').trim().toLowerCase();
  errors.checkRepeat('title', title, ctx.seenTitles, row.rowNumber);

  const existing = errors.has('title') ? [] : (ctx.byTitle.get(title) ?? []);
  let outcome: ImportRowOutcome = 'to_create';
  let recordId: string | null = null;
  if (existing.length > 1) {
    errors.fail('title', messages.imports.positionTitleAmbiguous);
  } else if (existing.length === 1) {
    const matched = existing[0]!;
    recordId = matched.id;
    const changes =
      parsed.success &&
      (matched.department !== parsed.data.department ||
        matched.location !== parsed.data.location ||
        matched.openings !== parsed.data.openings);
    outcome = ctx.onExisting === 'update' && changes ? 'to_update' : 'unchanged';
  }
  return { outcome: errors.any ? 'error' : outcome, errors: errors.errors, recordId };
}
