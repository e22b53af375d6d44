import { messages, type UpdateUserBody, type User, type UserListQuery } from '@portal/shared';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { pageEnvelope } from '../../lib/paging.js';
import { can, tenantScope, type Actor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { findUserDto, toUserDtos, userDtosAt } from '../../core/identity/users.repo.js';
import { findOrganization } from '../organizations/index.js';
import { revokeAllSessions } from '../sessions/index.js';
import { boundIdentityConflicts, describeIdentity } from './identity-conflicts.js';
import { enqueueInvite } from './invite-mail.js';
import { assertManageable, assignableRole, isAdminRole, userInScope } from './rules.js';
import { userAnswer } from './user-answer.js';
import {
  findUserHoldingIdentity,
  iterateUserRows,
  listUserPage,
  updateUserRecord,
  type UserFilter,
  type UserRecord,
} from './users.repo.js';

/** What the list and the export filter and sort by. */
type UserFilterQuery = Pick<
  UserListQuery,
  'search' | 'role' | 'status' | 'organizationId' | 'sort' | 'order'
>;

function filterFor(actor: Actor, query: UserFilterQuery): UserFilter {
  const scope = tenantScope(actor);
  // Naming another tenant answers as if it did not exist, for the list and the export.
  if (scope !== null && query.organizationId !== undefined && query.organizationId !== scope) {
    throw notFound(messages.users.organizationNotFound);
  }
  return {
    scope,
    organizationId: query.organizationId,
    search: query.search,
    role: query.role,
    status: query.status,
  };
}

/** GET /api/auth/users: one page, filtered, searched and sorted in the database, within the tenant. */
export async function listUsers(deps: Deps, actor: Actor, query: UserListQuery) {
  const { rows, version, total } = await listUserPage(deps.db, filterFor(actor, query), query, query);
  return pageEnvelope(query, await userDtosAt(deps.db, rows, version), total);
}

/**
 * Every user matching the list's filters, in list order, in batches (for the export). The filter is
 * checked now, so a refusal is an error answer rather than a broken download.
 */
export function usersForExport(deps: Deps, actor: Actor, query: UserFilterQuery): AsyncIterable<User[]> {
  const filter = filterFor(actor, query);
  return (async function* () {
    for await (const batch of iterateUserRows(deps.db, filter, query)) yield await toUserDtos(deps.db, batch);
  })();
}

/** GET /api/auth/users/:id: one's own record, or another's with User Management READ (the tenant's). */
export async function getUser(deps: Deps, actor: Actor, input: { id: string }): Promise<User> {
  if (input.id !== actor.userId && !can(actor, 'users', 'READ')) throw forbidden();
  const user = await findUserDto(deps.db, input.id);
  const scope = tenantScope(actor);
  if (!user || (scope && user.organizationId !== scope)) throw notFound(messages.users.notFound);
  return user;
}

/**
 * PUT /api/auth/users/:id. One's own record: username, fullName and mobileNo always; everything
 * else, and any other user, needs User Management UPDATE (and the tenant). Email never changes.
 */
async function updateUserIn(deps: Deps, actor: Actor, userId: string, body: UpdateUserBody) {
  const tx = deps.db;
  const own = userId === actor.userId;
  const mayManage = can(actor, 'users', 'UPDATE');
  if (!own && !mayManage) throw forbidden();
  const { user, roleName } = await userInScope(tx, actor, userId);

  if (body.email !== undefined && body.email.trim().toLowerCase() !== user.email.toLowerCase()) {
    throw badRequest(messages.users.emailLocked, { email: [messages.users.emailLocked] });
  }
  if (body.organizationId !== undefined && body.organizationId !== user.organizationId) {
    throw badRequest(messages.users.organizationLocked);
  }

  const changes: Partial<UserRecord> = {};
  const changed: string[] = [];
  const set = <K extends keyof UserRecord>(key: K, value: UserRecord[K], label: string) => {
    if (value !== user[key]) {
      changes[key] = value;
      changed.push(label);
    }
  };
  if (body.username !== undefined) set('username', body.username, 'username');
  if (body.fullName !== undefined) set('fullName', body.fullName ?? null, 'full name');
  if (body.mobileNo !== undefined) set('mobileNo', body.mobileNo, 'mobile number');
  const profileOnly = changed.length;

  if (body.client !== undefined) set('client', body.client, 'company name');
  let newRoleName: string | null = null;
  if (body.roleId !== undefined && body.roleId !== user.roleId) {
    if (own) throw forbidden(messages.users.cannotChangeOwnRole);
    const org = (await findOrganization(deps, actor, { id: user.organizationId }))!;
    const role = await assignableRole(tx, actor, body.roleId, org);
    set('roleId', role.id, 'role');
    newRoleName = role.name;
    changes.isAdmin = isAdminRole(role.name);
  }
  const active = body.isActive ?? body.enabled;
  if (active !== undefined && active !== user.isActive) {
    if (own && !active) throw forbidden(messages.users.cannotDeactivateSelf);
    set('isActive', active, active ? 'activated' : 'deactivated');
  }
  // Fields beyond the profile ones need User Management UPDATE even on one's own record.
  if (changed.length > profileOnly && !mayManage) throw forbidden();
  if (!own) await assertManageable(tx, actor, user.roleId);

  if (changes.username !== undefined) {
    if (await findUserHoldingIdentity(tx, { username: changes.username }, user.id)) {
      throw conflict(messages.users.duplicate);
    }
  }
  if (changed.length === 0) return;
  try {
    await updateUserRecord(tx, user.id, changes);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(messages.users.duplicate);
    throw error;
  }
  if (changes.isActive === false) await revokeAllSessions(deps, actor, { userId: user.id });
  await recordActivity(tx, {
    organizationId: user.organizationId,
    actorUserId: actor.userId,
    action: 'updated',
    entityType: 'user',
    entityId: user.id,
    message: `Updated ${own ? 'own profile' : (changes.username ?? user.username)}: ${changed.join(', ')}${
      newRoleName ? ` (role ${roleName} → ${newRoleName})` : ''
    }`,
  });
}

/** PUT /api/auth/users/:id: the user as it is after the change. */
export async function updateUser(
  deps: Deps,
  actor: Actor,
  input: { id: string; body: UpdateUserBody },
): Promise<User> {
  const { id, body } = input;
  const work = () => deps.db.transaction((tx) => updateUserIn(withDb(deps, tx), actor, id, body));
  // Only a new username can meet another organization's; the email never changes.
  if (body.username === undefined) await work();
  else await boundIdentityConflicts(deps, actor, describeIdentity({ username: body.username }), work);
  return userAnswer(deps.db, id);
}

/**
 * PUT /api/auth/users/:id/activate and /deactivate: `isActive` (and so `enabled`) set; deactivation
 * ends every session of the user at once. Nobody deactivates themselves.
 */
export async function setUserActive(
  deps: Deps,
  actor: Actor,
  input: { id: string; active: boolean },
): Promise<User> {
  const { id, active } = input;
  await deps.db.transaction(async (tx) => {
    const { user } = await userInScope(tx, actor, id);
    if (!active && user.id === actor.userId) throw forbidden(messages.users.cannotDeactivateSelf);
    if (user.id !== actor.userId) await assertManageable(tx, actor, user.roleId);
    if (user.isActive === active) return;
    await updateUserRecord(tx, user.id, { isActive: active });
    if (!active) await revokeAllSessions(withDb(deps, tx), actor, { userId: user.id });
    await recordActivity(tx, {
      organizationId: user.organizationId,
      actorUserId: actor.userId,
      action: 'updated',
      entityType: 'user',
      entityId: user.id,
      message: `${active ? 'Activated' : 'Deactivated'} ${user.username}`,
    });
  });
  return userAnswer(deps.db, id);
}

/**
 * POST /api/auth/users/:id/resend-invite: a new link (the old one stops working) for a user without
 * a password.
 */
export async function resendInvite(deps: Deps, actor: Actor, input: { id: string }): Promise<User> {
  await deps.db.transaction(async (tx) => {
    const { user } = await userInScope(tx, actor, input.id);
    if (user.passwordHash !== null) throw conflict(messages.users.inviteAlreadyAccepted);
    await assertManageable(tx, actor, user.roleId);
    await enqueueInvite(withDb(deps, tx), actor, user);
    await recordActivity(tx, {
      organizationId: user.organizationId,
      actorUserId: actor.userId,
      action: 'other',
      entityType: 'user',
      entityId: user.id,
      message: `Sent a new invitation to ${user.username} (${user.email})`,
    });
  });
  return userAnswer(deps.db, input.id);
}
