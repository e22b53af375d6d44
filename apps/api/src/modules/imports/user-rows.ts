import {
  createUserBodySchema,
  messages,
  USER_IMPORT_COLUMNS,
  type ImportOnExisting,
  type ImportRowOutcome,
  type UserImportColumn,
} from '@portal/shared';
import { RowErrors, type ImportRow } from './import-columns.js';
import type { CheckedRow } from './import-kind.js';

/** A users row's values by column. */
export type UserRowValues = Record<UserImportColumn, string>;

/** Other headers people give these columns. */
export const USER_ALIASES: Record<UserImportColumn, string[]> = {
  username: ['user', 'username', 'login'],
  email: ['email', 'emailaddress', 'mail'],
  mobile: ['mobile', 'mobileno', 'mobilenumber', 'phone', 'contactnumber'],
  role: ['role', 'rolename'],
};

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
export interface UserRowContext {
  organization: { id: string; name: string };
  actorUserId: string;
  onExisting: ImportOnExisting;
  /** The column rows are matched to the organization's users by. */
  matchBy: 'email' | 'username';
  roles: Map<string, RoleChoice>;
  rolesById: Map<string, RoleChoice>;
  byEmail: Map<string, ExistingUser>;
  byUsername: Map<string, ExistingUser>;
  /** Earlier rows' emails and usernames (lowercase) → their row numbers. */
  seenEmails: Map<string, number>;
  seenUsernames: Map<string, number>;
}

export interface CheckedUserRow extends CheckedRow {
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
 * and the portal's users. The row is matched by `matchBy` (email or username) to a user of the
 * organization: unchanged, or to update when `onExisting` is 'update' and something differs; an
 * identity held in another organization is an error.
 */
export function checkUserRow(row: ImportRow, ctx: UserRowContext): CheckedUserRow {
  const errors = new RowErrors(USER_IMPORT_COLUMNS);
  const values = row.values as UserRowValues;
  errors.checkText(values, USER_IMPORT_COLUMNS);

  const roleName = values.role.trim();
  const role = roleName ? ctx.roles.get(roleName.toLowerCase()) : undefined;
  if (!roleName) errors.fail('role', messages.imports.roleRequired);
  else if (!role) errors.fail('role', messages.imports.unknownRole);
  else if (!role.withinActor) errors.fail('role', messages.roles.scopeNotHeld);

  const parsed = createUserBodySchema.safeParse({
    email: values.email,
    username: values.username,
    mobileNo: values.mobile,
    client: ctx.organization.name,
    organizationId: ctx.organization.id,
    roleId: role?.id ?? RESOLVED_ELSEWHERE,
  });
  if (!parsed.success) errors.addIssues(parsed.error.issues, SCHEMA_FIELD);
  const email = values.email.trim().toLowerCase();
  const username = values.username.trim().toLowerCase();
  errors.checkRepeat('email', email, ctx.seenEmails, row.rowNumber);
  errors.checkRepeat('username', username, ctx.seenUsernames, row.rowNumber);

  const byEmail = errors.has('email') ? undefined : ctx.byEmail.get(email);
  const byUsername = errors.has('username') ? undefined : ctx.byUsername.get(username);
  const [matched, other, otherColumn] =
    ctx.matchBy === 'email'
      ? ([byEmail, byUsername, 'username'] as const)
      : ([byUsername, byEmail, 'email'] as const);
  let outcome: ImportRowOutcome = 'to_create';
  let recordId: string | null = null;
  let foreignConflict = false;
  if (matched && matched.organizationId !== ctx.organization.id) {
    foreignConflict = true;
    errors.fail(ctx.matchBy, messages.users.duplicate);
  } else if (matched) {
    recordId = matched.id;
    // An email is never changed (the edit screen's rule): matched by username, it must be the same.
    if (ctx.matchBy === 'username' && matched.email.toLowerCase() !== email)
      errors.fail('email', messages.users.emailLocked);
    const changes =
      matched.username !== values.username.trim() ||
      (matched.mobileNo ?? '') !== values.mobile.trim() ||
      (role !== undefined && matched.roleId !== role.id);
    outcome = ctx.onExisting === 'update' && changes ? 'to_update' : 'unchanged';
    if (outcome === 'to_update') {
      if (other && other.id !== matched.id) {
        foreignConflict = other.organizationId !== ctx.organization.id;
        errors.fail(otherColumn, messages.users.duplicate);
      }
      if (role && matched.roleId !== role.id && matched.id === ctx.actorUserId) {
        errors.fail('role', messages.users.cannotChangeOwnRole);
      }
      if (ctx.rolesById.get(matched.roleId)?.withinActor === false)
        errors.fail('role', messages.roles.scopeNotHeld);
    }
  } else if (other) {
    foreignConflict = other.organizationId !== ctx.organization.id;
    errors.fail(otherColumn, messages.users.duplicate);
  }
  return { outcome: errors.any ? 'error' : outcome, errors: errors.errors, recordId, foreignConflict };
}
