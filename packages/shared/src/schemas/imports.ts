import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '../constants.js';
import { MAX_CREDITS, MAX_PRICE_PER_CREDIT_PAISE, MIN_PRICE_PER_CREDIT_PAISE } from '../money.js';
import { messages } from '../messages.js';
import { IMPORT_KINDS, type ImportKind } from '../import-kinds.js';
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

// Zod-free, so the web's first script can read the kinds before zod is set up (lib/zod-config.ts).
export { IMPORT_KIND_FEATURE, IMPORT_KINDS, type ImportKind } from '../import-kinds.js';

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

/** A column of an import's file: its header, an example, the rule it follows; optional ones may be absent. */
export interface ImportColumn {
  key: string;
  label: string;
  example: string;
  rule: string;
  optional?: boolean;
}

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
] as const satisfies readonly ImportColumn[];
export type UserImportColumn = (typeof USER_IMPORT_COLUMNS)[number]['key'];

/** The columns of a positions import: the position form's fields. */
export const POSITION_IMPORT_COLUMNS = [
  { key: 'title', label: 'Title', example: 'Backend Engineer', rule: 'Required, at most 120 characters.' },
  {
    key: 'department',
    label: 'Department',
    example: 'Engineering',
    rule: 'Required, at most 120 characters.',
  },
  { key: 'location', label: 'Location', example: 'Bengaluru', rule: 'Required, at most 120 characters.' },
  { key: 'openings', label: 'Openings', example: '3', rule: 'A whole number from 1 to 1000.' },
] as const satisfies readonly ImportColumn[];
export type PositionImportColumn = (typeof POSITION_IMPORT_COLUMNS)[number]['key'];

/**
 * The columns of an organizations import: each row an onboarding as the screens do it (the
 * organization, its first Admin invited, a monthly subscription awaiting payment).
 */
export const ORGANIZATION_IMPORT_COLUMNS = [
  {
    key: 'company',
    label: 'Company',
    example: 'Acme Hiring Pvt Ltd',
    rule: 'The company name: required, as on the Invite Admin screen.',
  },
  { key: 'username', label: 'Admin username', example: 'asha.rao', rule: messages.users.invalidUsername },
  { key: 'email', label: 'Admin email', example: 'asha.rao@acme.example', rule: messages.users.invalidEmail },
  { key: 'mobile', label: 'Admin mobile', example: '9876543210', rule: messages.users.invalidMobile },
  {
    key: 'credits',
    label: 'Credits',
    example: '100',
    rule: `Interview credits a month: a whole number from 1 to ${MAX_CREDITS.toLocaleString('en-IN')}.`,
  },
  {
    key: 'pricePerCredit',
    label: 'Price per credit',
    example: '150',
    rule: `Rupees per interview credit, before GST, up to two decimals, from ₹${MIN_PRICE_PER_CREDIT_PAISE / 100} to ₹${(MAX_PRICE_PER_CREDIT_PAISE / 100).toLocaleString('en-IN')}.`,
  },
  {
    key: 'gstRate',
    label: 'GST %',
    example: '18',
    rule: 'GST rate in per cent, from 0 to 100; empty means 18.',
    optional: true,
  },
  {
    key: 'autoRenew',
    label: 'Auto-renewal',
    example: 'Yes',
    rule: 'Yes or No: whether the plan renews each month on its own; empty means No.',
    optional: true,
  },
  {
    key: 'gstState',
    label: 'GST state',
    example: '29',
    rule: "The two-digit GST state code of the company's place of supply (29 is Karnataka); may be empty.",
    optional: true,
  },
  {
    key: 'gstin',
    label: 'GSTIN',
    example: '29ABCDE1234F1ZW',
    rule: "The company's 15-character GSTIN, matching its GST state; empty for an unregistered company.",
    optional: true,
  },
] as const satisfies readonly ImportColumn[];
export type OrganizationImportColumn = (typeof ORGANIZATION_IMPORT_COLUMNS)[number]['key'];

export const IMPORT_COLUMNS: Record<ImportKind, readonly ImportColumn[]> = {
  users: USER_IMPORT_COLUMNS,
  positions: POSITION_IMPORT_COLUMNS,
  organizations: ORGANIZATION_IMPORT_COLUMNS,
};

/**
 * The columns a row may be matched to an existing record by (the first is the default): a re-run of
 * the same file finds its records by this column and creates nothing twice.
 */
export const IMPORT_MATCH_COLUMNS = {
  users: ['email', 'username'],
  positions: ['title'],
  organizations: ['email', 'company'],
} as const satisfies { [K in ImportKind]: readonly string[] };

export const importFormatQuerySchema = z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') });

/**
 * A column → the file's header naming it, or null: an optional column the file does not have. The
 * columns left out are matched by header.
 */
export const importMappingSchema = z.record(z.string().max(40), z.string().trim().min(1).max(200).nullable());
export type ImportMapping = z.infer<typeof importMappingSchema>;

/** The text fields of POST /api/auth/imports/:kind, beside its file (keys checked against the kind). */
export const importOptionsSchema = z.object({
  mapping: importMappingSchema.default({}),
  onExisting: z.enum(IMPORT_ON_EXISTING).default('skip'),
  /** A column of IMPORT_MATCH_COLUMNS for the kind; unset, its first. */
  matchBy: z.string().max(40).optional(),
  /** Users and positions: the super administrator may import into any organization; others only into their own. */
  organizationId: z.uuid().optional(),
});
export type ImportOptions = z.infer<typeof importOptionsSchema>;

/** POST /api/auth/imports/:kind/columns: the file's headers and the header each column matched. */
export const importColumnsSchema = z.object({
  headers: z.array(z.string()),
  mapping: z.record(z.string(), z.string().nullable()),
});
export type ImportColumns = z.infer<typeof importColumnsSchema>;

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
  matchBy: z.string(),
  /** Each column → the file's header it was read from. */
  mapping: z.record(z.string(), z.string()),
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
