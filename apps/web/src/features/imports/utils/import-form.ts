import { z } from 'zod';
import {
  IMPORT_COLUMNS,
  IMPORT_MATCH_COLUMNS,
  IMPORT_ON_EXISTING,
  importColumnMissing,
  messages,
  type ImportColumns,
  type ImportKind,
  type ImportMapping,
  type ImportOnExisting,
} from '@portal/shared';

/** The choices made before the dry run: '' is a column not in the file (or no organization chosen). */
export interface ImportFormValues {
  mapping: Record<string, string>;
  matchBy: string;
  onExisting: ImportOnExisting;
  organizationId: string;
}

/**
 * The form's rules: every required column read from some header of the file (the server's own
 * message when none is), a match column of the kind, and, for the super administrator importing
 * users or positions, an organization.
 */
export function importFormSchema(kind: ImportKind, needsOrganization: boolean) {
  const matchColumns: readonly string[] = IMPORT_MATCH_COLUMNS[kind];
  return z.object({
    mapping: z.record(z.string(), z.string()).superRefine((mapping, ctx) => {
      for (const column of IMPORT_COLUMNS[kind]) {
        if (!column.optional && !mapping[column.key])
          ctx.addIssue({ code: 'custom', path: [column.key], message: importColumnMissing(column.label) });
      }
    }),
    matchBy: z.string().refine((key) => matchColumns.includes(key), messages.imports.invalidOptions),
    onExisting: z.enum(IMPORT_ON_EXISTING),
    organizationId: needsOrganization ? z.string().min(1, messages.users.organizationRequired) : z.string(),
  });
}

export function defaultImportValues(kind: ImportKind): ImportFormValues {
  return {
    mapping: Object.fromEntries(IMPORT_COLUMNS[kind].map((c) => [c.key, ''])),
    matchBy: IMPORT_MATCH_COLUMNS[kind][0],
    onExisting: 'skip',
    organizationId: '',
  };
}

/** The server's automatic match as the form's mapping: each column's header, '' where none matched. */
export function mappingFrom(kind: ImportKind, answer: ImportColumns): Record<string, string> {
  return Object.fromEntries(
    IMPORT_COLUMNS[kind].map((c) => {
      const header = answer.mapping[c.key];
      return [c.key, header && answer.headers.includes(header) ? header : ''];
    }),
  );
}

/**
 * The mapping sent with the dry run: each column its header, or null for "Not in the file" (the form
 * allows that of optional columns only), so the server does not match it again by its header.
 */
export function mappingToSend(mapping: Record<string, string>): ImportMapping {
  return Object.fromEntries(
    Object.entries(mapping).map(([key, header]) => [key, header === '' ? null : header]),
  );
}

/** A column's label, by its key (the match column's name in a sentence). */
export function columnLabel(kind: ImportKind, key: string): string {
  return IMPORT_COLUMNS[kind].find((c) => c.key === key)?.label ?? key;
}
