import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '../constants.js';
import { messages } from '../messages.js';
import { listQuerySchema } from './common.js';

/**
 * Bulk import with a dry run (docs/decisions/036). The file is checked row by row with the same
 * schemas and messages as the screens, stored with each row's outcome, and committed by a job.
 */

/** The upload cap: the portal's one upload size, three times a 20,000-row users file. */
export const IMPORT_MAX_BYTES = MAX_UPLOAD_BYTES;
/** Rows past the header an import takes; a longer file is refused as soon as its next row is read. */
export const IMPORT_MAX_ROWS = 20_000;
/** What an .xlsx may unpack to, all its entries together: reading stops at this many bytes. */
export const IMPORT_MAX_INFLATED_BYTES = 64 * 1024 * 1024;
/** Errors an import's answer lists; every one of them is in its errors file. */
export const IMPORT_ERRORS_SHOWN = 1_000;

export const IMPORT_KINDS = ['users'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** dry_run: checked, nothing created; queued and running: committed, its job at work; done at the end. */
export const IMPORT_STATUSES = ['dry_run', 'queued', 'running', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** What the dry run found a row would do. */
export const IMPORT_ROW_OUTCOMES = ['to_create', 'to_update', 'unchanged', 'error'] as const;
export type ImportRowOutcome = (typeof IMPORT_ROW_OUTCOMES)[number];

/** What the commit did with a row it took. */
export const IMPORT_ROW_RESULTS = ['created', 'updated', 'unchanged', 'failed'] as const;
export type ImportRowResult = (typeof IMPORT_ROW_RESULTS)[number];

/** What to do with a row whose email is already a user of the organization. */
export const IMPORT_ON_EXISTING = ['skip', 'update'] as const;
export type ImportOnExisting = (typeof IMPORT_ON_EXISTING)[number];

/** The columns of a users import, in the template's order, with the rule each follows. */
export const USER_IMPORT_COLUMNS = [
  { key: 'username', label: 'Username', example: 'asha.rao', rule: messages.users.invalidUsername },
  { key: 'email', label: 'Email', example: 'asha.rao@example.com', rule: messages.users.invalidEmail },
  { key: 'mobile', label: 'Mobile', example: '9876543210', rule: messages.users.invalidMobile },
  {
    key: 'role',
    label: 'Role',
    example: 'admin',
    rule: 'The name of a role of the organization (or a system role), no wider than your own.',
  },
] as const;
export type UserImportColumn = (typeof USER_IMPORT_COLUMNS)[number]['key'];
export const USER_IMPORT_COLUMN_KEYS = USER_IMPORT_COLUMNS.map((c) => c.key) as [
  UserImportColumn,
  ...UserImportColumn[],
];

export const importFormatQuerySchema = z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') });

/** A column → the file's header naming it; the columns left out are matched by header. */
export const importMappingSchema = z.partialRecord(
  z.enum(USER_IMPORT_COLUMN_KEYS),
  z.string().trim().min(1).max(200),
);
export type ImportMapping = z.infer<typeof importMappingSchema>;

/** The text fields of POST /api/auth/imports/users, beside its file. */
export const userImportOptionsSchema = z.object({
  mapping: importMappingSchema.default({}),
  onExisting: z.enum(IMPORT_ON_EXISTING).default('skip'),
  /** The super administrator may import into any organization; others only into their own. */
  organizationId: z.uuid().optional(),
});
export type UserImportOptions = z.infer<typeof userImportOptionsSchema>;

export const importCellErrorSchema = z.object({
  row: z.number(),
  column: z.string(),
  message: z.string(),
});
export type ImportCellError = z.infer<typeof importCellErrorSchema>;

export const importCountsSchema = z.object({
  total: z.number(),
  toCreate: z.number(),
  toUpdate: z.number(),
  unchanged: z.number(),
  errors: z.number(),
});

/** An import as its history lists it. */
export const importSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(IMPORT_KINDS),
  organizationId: z.string(),
  fileName: z.string(),
  onExisting: z.enum(IMPORT_ON_EXISTING),
  status: z.enum(IMPORT_STATUSES),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  counts: importCountsSchema,
  /** Rows the commit has taken, of those it will take (to create and to update). */
  progress: z.object({ done: z.number(), total: z.number() }),
  /** After the commit: what it did. */
  results: z.object({ created: z.number(), updated: z.number(), unchanged: z.number(), failed: z.number() }),
  failure: z.string().nullable(),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;

/** An import with its errors, the first IMPORT_ERRORS_SHOWN of them (all are in its errors file). */
export const importDetailSchema = importSummarySchema.extend({
  errors: z.array(importCellErrorSchema),
  errorsTruncated: z.boolean(),
});
export type ImportDetail = z.infer<typeof importDetailSchema>;

export const importListQuerySchema = listQuerySchema.pick({ page: true, pageSize: true });
export type ImportListQuery = z.infer<typeof importListQuerySchema>;

/** A column the import needs that no header of the file matched. */
export function importColumnMissing(label: string): string {
  return `No column of the file is mapped to ${label}. Name a header ${label} or choose one in the mapping.`;
}

/** A later row repeating an earlier row's value in a column that must be unique. */
export function importDuplicateInFile(label: string, firstRow: number): string {
  return `This ${label.toLowerCase()} is already on row ${firstRow} of the file.`;
}

/** The notice to the importer when a commit ends. */
export function importFinishedBody(
  fileName: string,
  created: number,
  updated: number,
  failed: number,
): string {
  return `${fileName}: ${created} created, ${updated} updated, ${failed} failed.`;
}
