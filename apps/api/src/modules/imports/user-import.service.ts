import { messages, userImportOptionsSchema, type ImportDetail, type UserImportOptions } from '@portal/shared';
import { badRequest, invalidInput, notFound } from '../../lib/errors.js';
import type { Upload } from '../../lib/upload.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { isStorableText } from '../../plugins/text-guard.js';
import { findOrganization } from '../organizations/index.js';
import { boundImportConflicts, importableRoles, usersHoldingIdentities } from '../users/index.js';
import { importDetail } from './import-answer.js';
import { readSpreadsheet } from './import-file.js';
import { insertImport, type NewImportRow } from './imports.repo.js';
import {
  checkRow,
  mapColumns,
  mappedHeaders,
  storableValues,
  tableRows,
  type ExistingUser,
  type RoleChoice,
  type RowContext,
} from './user-rows.js';

/** The form's text fields as options: `mapping` is JSON (column → header). */
function userImportOptions(fields: Record<string, string>): UserImportOptions {
  let mapping: unknown = undefined;
  if (fields.mapping !== undefined && fields.mapping.trim() !== '') {
    try {
      mapping = JSON.parse(fields.mapping);
    } catch {
      throw badRequest(messages.imports.invalidMapping, { mapping: [messages.imports.invalidMapping] });
    }
  }
  const parsed = userImportOptionsSchema.safeParse({
    mapping,
    onExisting: fields.onExisting || undefined,
    organizationId: fields.organizationId || undefined,
  });
  if (!parsed.success) throw invalidInput(parsed.error.issues);
  return parsed.data;
}

/** The organization imported into: the actor's own, or any for the super administrator; another's is 404. */
async function targetOrganization(deps: Deps, actor: Actor, organizationId: string | undefined) {
  const id = organizationId ?? actor.organizationId;
  const scope = tenantScope(actor);
  const organization = scope !== null && id !== scope ? null : await findOrganization(deps, actor, { id });
  if (!organization) throw notFound(messages.users.organizationNotFound);
  return organization;
}

/**
 * POST /api/auth/imports/users: the dry run. Reads the file (hostile ones answer 4xx before anything
 * is read from the database), checks every row, and stores the import with each row's outcome; no
 * user is created or changed. Identities found in other organizations count toward the hourly bound
 * on such disclosures (decision 023), written before the import so a 429 keeps them counted.
 */
export async function dryRunUserImport(
  deps: Deps,
  actor: Actor,
  input: { upload: Upload | null; fields: Record<string, string> },
): Promise<ImportDetail> {
  const options = userImportOptions(input.fields);
  if (!input.upload) throw badRequest(messages.imports.fileRequired);
  const organization = await targetOrganization(deps, actor, options.organizationId);
  const table = await readSpreadsheet(input.upload.data);
  const columns = mapColumns(table.headers, options.mapping);
  const rows = tableRows(table, columns);

  const roles = await importableRoles(deps, actor, { organization });
  // Text the database cannot take (NUL) is an error of its row, never a parameter of the lookup.
  const lookup = (values: string[]) => values.map((v) => v.trim()).filter((v) => v && isStorableText(v));
  const existing: ExistingUser[] = await usersHoldingIdentities(deps, actor, {
    emails: lookup(rows.map((r) => r.values.email)),
    usernames: lookup(rows.map((r) => r.values.username)),
  });
  const ctx: RowContext = {
    organization,
    actorUserId: actor.userId,
    onExisting: options.onExisting,
    roles,
    rolesById: new Map<string, RoleChoice>([...roles.values()].map((r) => [r.id, r])),
    byEmail: new Map(existing.map((u) => [u.email.toLowerCase(), u])),
    byUsername: new Map(existing.map((u) => [u.username.toLowerCase(), u])),
    seenEmails: new Map(),
    seenUsernames: new Map(),
  };
  const stored: NewImportRow[] = [];
  const foreign: string[] = [];
  const counts = { to_create: 0, to_update: 0, unchanged: 0, error: 0 };
  for (const row of rows) {
    const checked = checkRow(row, ctx);
    counts[checked.outcome]++;
    const values = storableValues(row.values);
    if (checked.foreignConflict)
      foreign.push(`${values.username.slice(0, 120)} / ${values.email.slice(0, 120)}`);
    stored.push({
      rowNumber: row.rowNumber,
      values,
      outcome: checked.outcome,
      errors: checked.errors,
      userId: checked.userId,
    });
  }
  await boundImportConflicts(deps, actor, { tried: foreign });

  const record = await deps.db.transaction((tx) =>
    insertImport(
      tx,
      {
        organizationId: organization.id,
        kind: 'users',
        fileName: input.upload!.fileName,
        createdBy: actor.userId,
        onExisting: options.onExisting,
        mapping: mappedHeaders(table.headers, columns),
        status: 'dry_run',
        totalRows: rows.length,
        toCreate: counts.to_create,
        toUpdate: counts.to_update,
        unchanged: counts.unchanged,
        errorRows: counts.error,
      },
      stored,
    ),
  );
  return importDetail(deps.db, record);
}
