import { messages, USER_IMPORT_COLUMNS, type CreateUserBody } from '@portal/shared';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { AppError } from '../../lib/errors.js';
import { findOrganization } from '../organizations/index.js';
import {
  boundImportConflicts,
  createImportedUsers,
  IMPORTED_USERS_PER_BATCH,
  importableRoles,
  updateUser,
  usersHoldingIdentities,
  type ImportableRole,
} from '../users/index.js';
import { lookupValues } from './import-columns.js';
import { commitEachRow, refusalOf, type ImportKindHandler, type RowResult } from './import-kind.js';
import { checkUserRow, USER_ALIASES, type RoleChoice, type UserRowValues } from './user-rows.js';

interface UserCommitContext {
  organization: { id: string; name: string; isPlatform: boolean };
  roles: Map<string, ImportableRole>;
}

/**
 * Users of an organization: each row an invitation with createUserIn's rules and records, made for a
 * batch at once (createImportedUsers); an existing user of the organization updated as the edit
 * screen does (updateUser) when asked.
 */
export const userImport: ImportKindHandler<UserCommitContext> = {
  kind: 'users',
  columns: USER_IMPORT_COLUMNS,
  aliases: USER_ALIASES,
  intoOrganization: true,
  noun: 'users',
  batchRows: IMPORTED_USERS_PER_BATCH,

  async checkRows(deps, actor, input) {
    const { organization, rows } = input;
    const roles = await importableRoles(deps, actor, { organization });
    const existing = await usersHoldingIdentities(deps, actor, {
      emails: lookupValues(rows.map((r) => r.values.email ?? '')),
      usernames: lookupValues(rows.map((r) => r.values.username ?? '')),
    });
    const ctx = {
      organization,
      actorUserId: actor.userId,
      onExisting: input.onExisting,
      matchBy: input.matchBy as 'email' | 'username',
      roles,
      rolesById: new Map<string, RoleChoice>([...roles.values()].map((r) => [r.id, r])),
      byEmail: new Map(existing.map((u) => [u.email.toLowerCase(), u])),
      byUsername: new Map(existing.map((u) => [u.username.toLowerCase(), u])),
      seenEmails: new Map<string, number>(),
      seenUsernames: new Map<string, number>(),
    };
    const checked = rows.map((row) => checkUserRow(row, ctx));
    // Identities found in other organizations count toward the hourly bound (decision 023).
    const foreign = rows
      .filter((_, i) => checked[i]!.foreignConflict)
      .map((row) => `${row.values.username!.slice(0, 120)} / ${row.values.email!.slice(0, 120)}`);
    await boundImportConflicts(deps, actor, { tried: foreign });
    return checked;
  },

  async prepareCommit(deps: Deps, importer: Actor, record) {
    const organization = await findOrganization(deps, importer, { id: record.organizationId });
    if (!organization) throw new AppError(404, messages.users.organizationNotFound, 'NOT_FOUND');
    const roles = await importableRoles(deps, importer, { organization });
    return { organization, roles };
  },

  async commitRows(deps, importer, context, rows) {
    const results = new Map<number, RowResult>();
    const creating: { key: number; input: CreateUserBody }[] = [];
    for (const row of rows.filter((r) => r.outcome === 'to_create')) {
      const values = row.values as UserRowValues;
      const role = context.roles.get(values.role.trim().toLowerCase());
      if (!role || !role.withinActor) results.set(row.rowNumber, unknownRole());
      else
        creating.push({
          key: row.rowNumber,
          input: {
            email: values.email,
            username: values.username,
            mobileNo: values.mobile,
            client: context.organization.name,
            organizationId: context.organization.id,
            roleId: role.id,
          },
        });
    }
    const created = await createImportedUsers(deps, importer, {
      organization: context.organization,
      rows: creating,
    });
    for (const [key, outcome] of created) {
      results.set(
        key,
        'user' in outcome ? { result: 'created', recordId: outcome.user.id } : refusalOf(outcome.error),
      );
    }
    const updating = rows.filter((r) => r.outcome === 'to_update');
    const updated = await commitEachRow(deps, updating, async (rowDeps, row) => {
      const values = row.values as UserRowValues;
      const role = context.roles.get(values.role.trim().toLowerCase());
      if (!role || !role.withinActor) return unknownRole();
      await updateUser(rowDeps, importer, {
        id: row.recordId!,
        body: { username: values.username.trim(), mobileNo: values.mobile.trim(), roleId: role.id },
      });
      return { result: 'updated', recordId: row.recordId };
    });
    for (const [key, result] of updated) results.set(key, result);
    return results;
  },
};

/** A role gone, or widened past the importer's, since the dry run: the row's refusal. */
function unknownRole(): RowResult {
  return { result: 'failed', error: messages.imports.unknownRole };
}
