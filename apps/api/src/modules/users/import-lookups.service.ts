import { holdsAll, SYSTEM_ROLES } from '@portal/shared';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { loadRolePermissions } from '../../core/identity/roles.repo.js';
import { findRolesVisibleTo, findUsersHoldingIdentities } from './users.repo.js';

/** A role a bulk import may name, and whether the importer may hand it out. */
export interface ImportableRole {
  id: string;
  name: string;
  /** No wider than the actor's own role (always, for the super administrator). */
  withinActor: boolean;
}

/**
 * The roles visible to an organization, keyed by lowercase name (its own role shadows a system role
 * of the same name), each marked with whether the actor may grant it: the rules of `assignableRole`,
 * for every role at once. super_admin is there only for the super administrator, in the platform.
 */
export async function importableRoles(
  deps: Deps,
  actor: Actor,
  input: { organization: { id: string; isPlatform: boolean } },
): Promise<Map<string, ImportableRole>> {
  const { organization } = input;
  const visible = (await findRolesVisibleTo(deps.db, organization.id)).filter(
    (role) => role.name !== SYSTEM_ROLES.superAdmin || (actor.isSuperAdmin && organization.isPlatform),
  );
  const permissions = await loadRolePermissions(
    deps.db,
    visible.map((role) => role.id),
  );
  const byName = new Map<string, ImportableRole>();
  for (const role of visible.sort(
    (a, b) => Number(a.organizationId !== null) - Number(b.organizationId !== null),
  )) {
    const withinActor = actor.isSuperAdmin || holdsAll(actor.permissions, permissions.get(role.id) ?? []);
    byName.set(role.name.toLowerCase(), { id: role.id, name: role.name, withinActor });
  }
  return byName;
}

/** Chunks of lookups: a parameter array of this many values stays one cheap statement. */
const LOOKUP_CHUNK = 1_000;

/**
 * The users, across the portal, holding any of these emails or usernames (compared lowercase): what
 * a bulk import checks its rows against. The caller decides what it may reveal of another tenant's.
 */
export async function usersHoldingIdentities(
  deps: Deps,
  _actor: Actor,
  input: { emails: readonly string[]; usernames: readonly string[] },
) {
  const found = new Map<string, Awaited<ReturnType<typeof findUsersHoldingIdentities>>[number]>();
  const emails = [...new Set(input.emails.map((e) => e.toLowerCase()))];
  const usernames = [...new Set(input.usernames.map((u) => u.toLowerCase()))];
  for (let i = 0; i < Math.max(emails.length, usernames.length); i += LOOKUP_CHUNK) {
    const rows = await findUsersHoldingIdentities(
      deps.db,
      emails.slice(i, i + LOOKUP_CHUNK),
      usernames.slice(i, i + LOOKUP_CHUNK),
    );
    for (const row of rows) found.set(row.id, row);
  }
  return [...found.values()];
}
