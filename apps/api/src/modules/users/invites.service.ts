import { createUserBodySchema, messages, type CreateUserBody, type User } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { conflict, invalidInput, isUniqueViolation, notFound } from '../../lib/errors.js';
import { can, tenantScope, type Actor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { createOrganizationIfMissing, findOrganization } from '../organizations/index.js';
import { boundIdentityConflicts, describeIdentity } from './identity-conflicts.js';
import { enqueueInvite } from './invite-mail.js';
import { assignableRole, invitedUserRow } from './rules.js';
import { userAnswer } from './user-answer.js';
import { findUserHoldingIdentity, insertUser, type UserRecord } from './users.repo.js';

export interface CreatedUser {
  user: UserRecord;
  /** True when this call created the organization row. */
  organizationCreated: boolean;
}

/**
 * Creates the user in `deps.db`, the caller's transaction. `allowNewOrganization` true (POST /users/as/admin, onboarding): an unknown organizationId creates
 * the organization, named after `client`; this needs Organization Management CREATE. false
 * (POST /auth-session/register): the organization must exist.
 */
async function createUserWith(
  deps: Deps,
  actor: Actor,
  input: CreateUserBody,
  allowNewOrganization: boolean,
): Promise<CreatedUser> {
  const parsed = createUserBodySchema.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error.issues);
  const data = parsed.data;
  const scope = tenantScope(actor);
  const tx: Db = deps.db;

  let org = await findOrganization(deps, actor, { id: data.organizationId });
  let organizationCreated = false;
  if (org) {
    if (scope !== null && org.id !== scope) throw notFound(messages.users.organizationNotFound);
  } else {
    // One answer for an unknown id and another tenant's, so neither reveals which ids exist.
    if (!allowNewOrganization || !can(actor, 'organizations', 'CREATE')) {
      throw notFound(messages.users.organizationNotFound);
    }
    organizationCreated = await createOrganizationIfMissing(deps, actor, {
      id: data.organizationId,
      name: data.client,
    });
    org = (await findOrganization(deps, actor, { id: data.organizationId }))!;
  }

  const role = await assignableRole(tx, actor, data.roleId, org);

  if (await findUserHoldingIdentity(tx, { username: data.username, email: data.email })) {
    throw conflict(messages.users.duplicate);
  }
  let user: UserRecord;
  try {
    user = await insertUser(tx, invitedUserRow(actor, org.id, role, data));
  } catch (error) {
    // Two concurrent creates of the same name: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(messages.users.duplicate);
    throw error;
  }

  await enqueueInvite(deps, actor, user);

  if (organizationCreated) {
    await recordActivity(tx, {
      organizationId: org.id,
      actorUserId: actor.userId,
      action: 'created',
      entityType: 'organization',
      entityId: org.id,
      message: `Created organization ${org.name}`,
    });
  }
  await recordActivity(tx, {
    organizationId: org.id,
    actorUserId: actor.userId,
    action: 'created',
    entityType: 'user',
    entityId: user.id,
    message: `Invited ${user.username} (${user.email}) as ${role.name}`,
  });
  return { user, organizationCreated };
}

/**
 * Creates a user and writes the invitation, a one-time set-password link (valid INVITE_VALID_HOURS),
 * to the outbox; no password is ever set here (a `password` in the input is ignored). An unknown
 * organizationId creates the organization (named after `client`) if the actor holds Organization
 * Management CREATE. For billing's onboarding: called with `withDb(deps, tx)`, it is part of the
 * caller's transaction, so the organization, user, subscription and payment are made at once; the
 * invitation is delivered once it commits. Validates `input` with `createUserBodySchema` itself,
 * so callers may pass a raw body. Throws AppError: 400 (the first broken field rule,
 * 'organizationId is required', 'roleId is required'), 403 (a role wider than the actor's), 404
 * (organization of another tenant, or new without Organization Management CREATE; unknown role or
 * one not visible to the organization), 409 `messages.users.duplicate` (username or email taken,
 * case-insensitive).
 */
export function createUserIn(deps: Deps, actor: Actor, input: CreateUserBody): Promise<CreatedUser> {
  return deps.db.transaction((tx) => createUserWith(withDb(deps, tx), actor, input, true));
}

/** A route's invitation: its own transaction, conflicts bounded; the mail goes once it commits. */
async function invite(deps: Deps, actor: Actor, input: CreateUserBody, allowNewOrganization: boolean) {
  const created = await boundIdentityConflicts(deps, actor, describeIdentity(input), () =>
    deps.db.transaction((tx) => createUserWith(withDb(deps, tx), actor, input, allowNewOrganization)),
  );
  return userAnswer(deps.db, created.user.id);
}

/** POST /api/auth/users/as/admin: invites a user, creating the organization when its id is new. */
export function inviteUser(deps: Deps, actor: Actor, input: CreateUserBody): Promise<User> {
  return invite(deps, actor, input, true);
}

/**
 * POST /api/auth/auth-session/register: adds a member to an existing organization (any role visible
 * to it), invited by email.
 */
export function registerCompany(deps: Deps, actor: Actor, input: CreateUserBody): Promise<User> {
  return invite(deps, actor, input, false);
}
