import {
  createUserBodySchema,
  importColumnMissing,
  importDuplicateInFile,
  messages,
  USER_IMPORT_COLUMNS,
  type ImportMapping,
  type ImportOnExisting,
  type ImportRowOutcome,
  type UserImportColumn,
} from '@portal/shared';
import { badRequest } from '../../lib/errors.js';
import { isStorableText } from '../../plugins/text-guard.js';
import type { SheetTable } from './import-file.js';

/** A row's values by column, as the file had them. */
export type UserRowValues = Record<UserImportColumn, string>;
export interface CellError {
  column: string;
  message: string;
}

const LABELS = Object.fromEntries(USER_IMPORT_COLUMNS.map((c) => [c.key, c.label])) as Record<
  UserImportColumn,
  string
>;
const RULES = Object.fromEntries(USER_IMPORT_COLUMNS.map((c) => [c.key, c.rule])) as Record<
  UserImportColumn,
  string
>;
/** Other headers people give these columns. */
const ALIASES: Record<UserImportColumn, string[]> = {
  username: ['user', 'username', 'login'],
  email: ['email', 'emailaddress', 'mail'],
  mobile: ['mobile', 'mobileno', 'mobilenumber', 'phone', 'contactnumber'],
  role: ['role', 'rolename'],
};

/** Headers compared without case, spaces, underscores or hyphens. */
const squash = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * Each column's index in the file: the header `mapping` names for it, else the header that matches
 * it (case- and space-insensitive). A named header that is not in the file, or a column left
 * unmatched, is a 400 naming it.
 */
export function mapColumns(
  headers: readonly string[],
  mapping: ImportMapping,
): Record<UserImportColumn, number> {
  const squashed = headers.map(squash);
  const found = {} as Record<UserImportColumn, number>;
  for (const { key, label } of USER_IMPORT_COLUMNS) {
    const named = mapping[key];
    const index =
      named !== undefined
        ? squashed.indexOf(squash(named))
        : squashed.findIndex((h) => h === squash(label) || ALIASES[key].includes(h));
    if (index < 0) {
      throw badRequest(named !== undefined ? messages.imports.invalidMapping : importColumnMissing(label), {
        [key]: [importColumnMissing(label)],
      });
    }
    found[key] = index;
  }
  return found;
}

/** The headers each column was read from, as stored with the import. */
export function mappedHeaders(headers: readonly string[], columns: Record<UserImportColumn, number>) {
  return Object.fromEntries(USER_IMPORT_COLUMNS.map((c) => [c.key, headers[columns[c.key]] ?? '']));
}

export function rowValues(
  cells: readonly string[],
  columns: Record<UserImportColumn, number>,
): UserRowValues {
  return Object.fromEntries(
    USER_IMPORT_COLUMNS.map((c) => [c.key, cells[columns[c.key]] ?? '']),
  ) as UserRowValues;
}

/** Storable in the database's text and jsonb: NUL dropped, lone surrogates replaced, cut to 1,000 characters. */
export function storableValues(values: UserRowValues): UserRowValues {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, v.replaceAll('\u0000', '').toWellFormed().slice(0, 1_000)]),
  ) as UserRowValues;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A user of the portal a row's email or username matched. */
export interface ExistingUser {
  id: string;
  username: string;
  email: string;
  mobileNo: string | null;
  organizationId: string;
  roleId: string;
}

export interface RoleChoice {
  id: string;
  name: string;
  withinActor: boolean;
}

/** What every row is checked against. */
export interface RowContext {
  organization: { id: string; name: string };
  actorUserId: string;
  onExisting: ImportOnExisting;
  roles: Map<string, RoleChoice>;
  rolesById: Map<string, RoleChoice>;
  byEmail: Map<string, ExistingUser>;
  byUsername: Map<string, ExistingUser>;
  /** Earlier rows' emails and usernames (lowercase) → their row numbers. */
  seenEmails: Map<string, number>;
  seenUsernames: Map<string, number>;
}

export interface CheckedRow {
  outcome: ImportRowOutcome;
  errors: CellError[];
  userId: string | null;
  /** An identity held in another organization: counted toward the hourly bound (decision 023). */
  foreignConflict: boolean;
}

/** Any uuid: stands for a role that has its own error, so the schema reports nothing more of it. */
const RESOLVED_ELSEWHERE = '00000000-0000-4000-8000-000000000000';
const SCHEMA_FIELD: Record<string, UserImportColumn> = {
  email: 'email',
  username: 'username',
  mobileNo: 'mobile',
};

/**
 * One row's checks: text the database cannot store, the create-user screen's schema and messages,
 * the role (known to the organization, no wider than the importer's), repeats of an earlier row,
 * and the portal's users (another organization's: an error; the organization's own: unchanged, or
 * to update when `onExisting` is 'update' and something differs).
 */
export function checkRow(row: { rowNumber: number; values: UserRowValues }, ctx: RowContext): CheckedRow {
  const errors: CellError[] = [];
  const failed = new Set<UserImportColumn>();
  const fail = (column: UserImportColumn, message: string) => {
    if (failed.has(column)) return;
    failed.add(column);
    errors.push({ column: LABELS[column], message });
  };
  const { values } = row;
  for (const { key } of USER_IMPORT_COLUMNS) {
    if (!isStorableText(values[key])) fail(key, messages.http.unstorableText);
    else if (CONTROL.test(values[key])) fail(key, RULES[key]);
  }

  const roleName = values.role.trim();
  const role = roleName ? ctx.roles.get(roleName.toLowerCase()) : undefined;
  if (!roleName) fail('role', messages.imports.roleRequired);
  else if (!role) fail('role', messages.imports.unknownRole);
  else if (!role.withinActor) fail('role', messages.roles.scopeNotHeld);

  const parsed = createUserBodySchema.safeParse({
    email: values.email,
    username: values.username,
    mobileNo: values.mobile,
    client: ctx.organization.name,
    organizationId: ctx.organization.id,
    roleId: role?.id ?? RESOLVED_ELSEWHERE,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const column = SCHEMA_FIELD[String(issue.path[0])];
      if (column) fail(column, issue.message);
    }
  }
  const email = values.email.trim().toLowerCase();
  const username = values.username.trim().toLowerCase();
  const earlierEmail = email ? ctx.seenEmails.get(email) : undefined;
  const earlierUsername = username ? ctx.seenUsernames.get(username) : undefined;
  if (earlierEmail !== undefined) fail('email', importDuplicateInFile(LABELS.email, earlierEmail));
  else if (email) ctx.seenEmails.set(email, row.rowNumber);
  if (earlierUsername !== undefined)
    fail('username', importDuplicateInFile(LABELS.username, earlierUsername));
  else if (username) ctx.seenUsernames.set(username, row.rowNumber);

  let outcome: ImportRowOutcome = 'to_create';
  let userId: string | null = null;
  let foreignConflict = false;
  const existing = failed.has('email') ? undefined : ctx.byEmail.get(email);
  const holder = failed.has('username') ? undefined : ctx.byUsername.get(username);
  if (existing && existing.organizationId !== ctx.organization.id) {
    foreignConflict = true;
    fail('email', messages.users.duplicate);
  } else if (existing) {
    userId = existing.id;
    const changes =
      existing.username !== values.username.trim() ||
      (existing.mobileNo ?? '') !== values.mobile.trim() ||
      (role !== undefined && existing.roleId !== role.id);
    outcome = ctx.onExisting === 'update' && changes ? 'to_update' : 'unchanged';
    if (outcome === 'to_update') {
      if (holder && holder.id !== existing.id) {
        foreignConflict = holder.organizationId !== ctx.organization.id;
        fail('username', messages.users.duplicate);
      }
      if (role && existing.roleId !== role.id && existing.id === ctx.actorUserId) {
        fail('role', messages.users.cannotChangeOwnRole);
      }
      if (ctx.rolesById.get(existing.roleId)?.withinActor === false)
        fail('role', messages.roles.scopeNotHeld);
    }
  } else if (holder) {
    foreignConflict = holder.organizationId !== ctx.organization.id;
    fail('username', messages.users.duplicate);
  }
  return { outcome: errors.length > 0 ? 'error' : outcome, errors, userId, foreignConflict };
}

export { LABELS as USER_IMPORT_LABELS };

/** The rows of a table with their values by column. */
export function tableRows(table: SheetTable, columns: Record<UserImportColumn, number>) {
  return table.rows.map((row) => ({ rowNumber: row.rowNumber, values: rowValues(row.cells, columns) }));
}
