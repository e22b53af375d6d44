import { createUserBodySchema, messages, type CreateUserBody, type CreateUserInput } from '@portal/shared';
import { AppError, conflict, invalidInput, notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { recordActivities } from '../../core/activity-log.repo.js';
import { enqueueInvites } from './invite-mail.js';
import { assignableRole, invitedUserRow } from './rules.js';
import { findUsersHoldingIdentities, insertUsersWhereFree, type UserRecord } from './users.repo.js';

/** Rows an import hands over at once; a batch stays a few statements with parameters to spare. */
export const IMPORTED_USERS_PER_BATCH = 200;
/** Past this a batch's inserts would near PostgreSQL's 65,535 parameters a statement. */
const MAX_BATCH = 1_000;

/** One row of a batch: the caller's key for it (a row number) and the body the invite screen takes. */
export interface ImportedUserRow {
  key: number;
  input: CreateUserBody;
}

/** What came of a row: the user created, or the refusal the invite screen would have answered. */
export type ImportedUserOutcome = { user: UserRecord } | { error: AppError };

type Role = Awaited<ReturnType<typeof assignableRole>>;

/**
 * Creates a batch of users of one existing organization for an import, inside the caller's
 * transaction (`deps.db`), in a bounded number of statements: createUserIn's rules and records for
 * every row, set-based. Each row is checked with `createUserBodySchema` (400, the first broken
 * rule), must name `organization`, which must be in the actor's tenant (404
 * `messages.users.organizationNotFound`; no organization is created), and its role must be assignable
 * by the actor (`assignableRole`, each distinct role once: 404 unknown, 403 wider than the actor's).
 * A username or email held by a user, by an earlier row of the batch, or taken meanwhile by a
 * concurrent transaction is `messages.users.duplicate` (409). The rows created get their invitation
 * (a set-password link, mailed once the caller commits) and a "created user" activity entry, as
 * createUserIn writes them. Answers every row's key with its outcome; a refused row changes nothing
 * and does not fail the others. Other errors (the database) throw, for the caller to roll back.
 */
export async function createImportedUsers(
  deps: Deps,
  actor: Actor,
  input: {
    organization: { id: string; isPlatform: boolean };
    rows: readonly ImportedUserRow[];
  },
): Promise<Map<number, ImportedUserOutcome>> {
  const { organization, rows } = input;
  if (rows.length > MAX_BATCH) throw new Error(`at most ${MAX_BATCH} users a batch, not ${rows.length}`);
  const outcomes = new Map<number, ImportedUserOutcome>();
  const refuse = (key: number, error: AppError) => outcomes.set(key, { error });
  const scope = tenantScope(actor);

  const keys = new Set<number>();
  const valid: { key: number; data: CreateUserInput }[] = [];
  for (const row of rows) {
    if (keys.has(row.key)) throw new Error(`row key ${row.key} appears twice in the batch`);
    keys.add(row.key);
    const parsed = createUserBodySchema.safeParse(row.input);
    if (!parsed.success) refuse(row.key, invalidInput(parsed.error.issues));
    // One answer for another organization and another tenant's, as the screen gives.
    else if (
      parsed.data.organizationId !== organization.id ||
      (scope !== null && scope !== organization.id)
    ) {
      refuse(row.key, notFound(messages.users.organizationNotFound));
    } else valid.push({ key: row.key, data: parsed.data });
  }

  const roles = new Map<string, Role | AppError>();
  for (const roleId of new Set(valid.map((row) => row.data.roleId))) {
    try {
      roles.set(roleId, await assignableRole(deps.db, actor, roleId, organization));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      roles.set(roleId, error);
    }
  }
  const withRole: { key: number; data: CreateUserInput; role: Role }[] = [];
  for (const row of valid) {
    const role = roles.get(row.data.roleId)!;
    if (role instanceof AppError) refuse(row.key, role);
    else withRole.push({ ...row, role });
  }

  // Emails are lowercase from the schema; usernames are unique without case.
  const held = await findUsersHoldingIdentities(
    deps.db,
    withRole.map((row) => row.data.email),
    withRole.map((row) => row.data.username.toLowerCase()),
  );
  const takenEmails = new Set(held.map((user) => user.email.toLowerCase()));
  const takenUsernames = new Set(held.map((user) => user.username.toLowerCase()));
  const toInsert: typeof withRole = [];
  for (const row of withRole) {
    const email = row.data.email;
    const username = row.data.username.toLowerCase();
    // An earlier row of the batch holds it as a user would: the later one is refused.
    if (takenEmails.has(email) || takenUsernames.has(username)) {
      refuse(row.key, conflict(messages.users.duplicate));
      continue;
    }
    takenEmails.add(email);
    takenUsernames.add(username);
    toInsert.push(row);
  }
  // In one order, so two batches with the same addresses wait on each other rather than deadlock.
  toInsert.sort((a, b) => (a.data.email < b.data.email ? -1 : a.data.email > b.data.email ? 1 : 0));

  const inserted = await insertUsersWhereFree(
    deps.db,
    toInsert.map(({ data, role }) => invitedUserRow(actor, organization.id, role, data)),
  );
  const insertedByEmail = new Map(inserted.map((user) => [user.email.toLowerCase(), user]));
  const created: { key: number; user: UserRecord; role: Role }[] = [];
  for (const row of toInsert) {
    const user = insertedByEmail.get(row.data.email);
    // Taken meanwhile: a concurrent transaction committed the username or email first.
    if (!user) refuse(row.key, conflict(messages.users.duplicate));
    else created.push({ key: row.key, user, role: row.role });
  }

  await enqueueInvites(
    deps,
    actor,
    created.map(({ user }) => user),
  );
  await recordActivities(
    deps.db,
    created.map(({ user, role }) => ({
      organizationId: organization.id,
      actorUserId: actor.userId,
      action: 'created' as const,
      entityType: 'user',
      entityId: user.id,
      message: `Invited ${user.username} (${user.email}) as ${role.name}`,
    })),
  );
  for (const { key, user } of created) outcomes.set(key, { user });
  return outcomes;
}
