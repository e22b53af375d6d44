import type { FastifyInstance } from 'fastify';
import {
  createUserBodySchema,
  holdsAll,
  INVITE_VALID_HOURS,
  messages,
  SYSTEM_ROLES,
  type CreateUserBody,
  type UpdateUserBody,
  type User,
  type UserListQuery,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import {
  badRequest,
  conflict,
  forbidden,
  isUniqueViolation,
  notFound,
  invalidInput,
  tooManyRequests,
  AppError,
} from '../../lib/errors.js';
import { can, tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { resetLink } from '../auth/auth.service.js';
import { issueOneTimeToken } from '../auth/one-time-tokens.repo.js';
import { revokeUserSessions } from '../auth/sessions.repo.js';
import { countHit, countInWindow } from '../../core/rate-limits.repo.js';
import type { Mailer } from '../../core/mail.js';
import { loadRolePermissions } from '../../core/identity/roles.repo.js';
import { toUserDtos, userDtosAt } from '../../core/identity/users.repo.js';
import {
  findOrganizationById,
  findRoleById,
  findUserHoldingIdentity,
  findUserRecord,
  insertOrganizationIfMissing,
  insertUser,
  iterateUserRows,
  listUserPage,
  updateUserRecord,
  type UserFilter,
  type UserRecord,
} from './users.repo.js';

/** Who is acting: the request's `request.actor`. */

/** Where the invite link points and how its email leaves. */
export interface InviteDelivery {
  mailer: Mailer;
  /** The portal's configured public origin (`app.env.publicOrigin`), never a request's Host. */
  baseUrl: string;
}

export interface CreatedUser {
  user: UserRecord;
  /** Outbox entry of the invite email: call `app.mailer.deliver(app.db, outboxId)` after commit. */
  outboxId: string;
  /** True when this call created the organization row. */
  organizationCreated: boolean;
}

export interface CreateUserOptions {
  /**
   * true (POST /users/as/admin, onboarding): an unknown organizationId creates the organization,
   * named after `client`; this needs Organization Management CREATE.
   * false (POST /auth-session/register): the organization must exist.
   */
  allowNewOrganization: boolean;
}

/** The role must be visible to the organization and, for anyone but super_admin, no wider than the actor's own. */
async function assignableRole(
  db: Db,
  actor: Actor,
  roleId: string,
  org: { id: string; isPlatform: boolean },
) {
  const role = await findRoleById(db, roleId);
  const visible =
    role !== null &&
    (role.organizationId === null || role.organizationId === org.id) &&
    (role.name !== SYSTEM_ROLES.superAdmin || (actor.isSuperAdmin && org.isPlatform));
  if (!role || !visible) throw notFound(messages.roles.roleNotFound);
  if (!actor.isSuperAdmin) {
    const granted = (await loadRolePermissions(db, [role.id])).get(role.id) ?? [];
    if (!holdsAll(actor.permissions, granted)) throw forbidden(messages.roles.scopeNotHeld);
  }
  return role;
}

export function inviteMail(to: string, link: string) {
  return {
    to,
    subject: 'You are invited to the Interview Credits Portal',
    text: `An account has been created for you on the Interview Credits Portal.\n\nSet your password to sign in: ${link}\n\nThe link works once and expires in ${INVITE_VALID_HOURS} hours. If it has expired, ask your administrator to send a new one.`,
  };
}

/**
 * Creates a user and emails a one-time set-password link (valid INVITE_VALID_HOURS); no password is
 * ever set here (a `password` in the input is ignored).
 * Runs inside the caller's transaction `tx`, so a caller can create the organization, user,
 * subscription and payment at once (billing onboarding). Validates `input` with
 * `createUserBodySchema` itself, so callers may pass a raw body. Throws AppError:
 * 400 (the first broken field rule, 'organizationId is required', 'roleId is required'),
 * 403 (a role wider than the actor's), 404 (organization of another tenant, or new without
 * Organization Management CREATE; unknown role or one not visible to the organization),
 * 409 `messages.users.duplicate` (username or email taken, case-insensitive).
 * After commit, call `mailer.deliver(db, outboxId)` and read the answer with `findUserDto`
 * (`inviteUser` does both for a route).
 */
export async function createUserIn(
  tx: Db,
  actor: Actor,
  input: CreateUserBody,
  delivery: InviteDelivery,
  options: CreateUserOptions = { allowNewOrganization: true },
): Promise<CreatedUser> {
  const parsed = createUserBodySchema.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error.issues);
  const data = parsed.data;
  const scope = tenantScope(actor);

  let org = await findOrganizationById(tx, data.organizationId);
  let organizationCreated = false;
  if (org) {
    if (scope !== null && org.id !== scope) throw notFound(messages.users.organizationNotFound);
  } else {
    // One answer for an unknown id and another tenant's, so neither reveals which ids exist.
    if (!options.allowNewOrganization || !can(actor, 'organizations', 'CREATE')) {
      throw notFound(messages.users.organizationNotFound);
    }
    organizationCreated = await insertOrganizationIfMissing(tx, {
      id: data.organizationId,
      name: data.client,
    });
    org = (await findOrganizationById(tx, data.organizationId))!;
  }

  const role = await assignableRole(tx, actor, data.roleId, org);

  if (await findUserHoldingIdentity(tx, { username: data.username, email: data.email })) {
    throw conflict(messages.users.duplicate);
  }
  const isActive = data.isActive ?? data.enabled ?? true;
  let user: UserRecord;
  try {
    user = await insertUser(tx, {
      organizationId: org.id,
      roleId: role.id,
      username: data.username,
      email: data.email,
      fullName: data.fullName ?? null,
      mobileNo: data.mobileNo,
      client: data.client,
      // Derived from the role, not trusted from the body.
      isAdmin: role.name === SYSTEM_ROLES.admin || role.name === SYSTEM_ROLES.superAdmin,
      isActive,
      passwordHash: null,
      createdBy: actor.userId,
    });
  } catch (error) {
    // Two concurrent creates of the same name: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(messages.users.duplicate);
    throw error;
  }

  const token = await issueOneTimeToken(tx, user.id, 'invite', INVITE_VALID_HOURS);
  const outboxId = await delivery.mailer.enqueue(
    tx,
    inviteMail(user.email, resetLink(delivery.baseUrl, token)),
  );

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
  return { user, outboxId, organizationCreated };
}

/** A user of the actor's tenant, or 404 (never 403: another tenant's user must not be revealed). */
async function userInScope(db: Db, actor: Actor, userId: string) {
  const record = await findUserRecord(db, userId);
  const scope = tenantScope(actor);
  if (!record || (scope !== null && record.user.organizationId !== scope)) {
    throw notFound(messages.users.notFound);
  }
  return record;
}

/**
 * Anyone but super_admin manages only users whose role is no wider than their own: every route that
 * acts on another user checks it (test/no-wider-role.test.ts).
 */
export async function assertManageable(db: Db, actor: Actor, roleId: string) {
  if (actor.isSuperAdmin) return;
  const held = (await loadRolePermissions(db, [roleId])).get(roleId) ?? [];
  if (!holdsAll(actor.permissions, held)) throw forbidden(messages.roles.scopeNotHeld);
}

/**
 * PUT /api/auth/users/:id. One's own record: username, fullName and mobileNo always; everything
 * else, and any other user, needs User Management UPDATE (and the tenant). Email never changes.
 */
async function updateUserIn(tx: Db, actor: Actor, userId: string, body: UpdateUserBody) {
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
    const org = (await findOrganizationById(tx, user.organizationId))!;
    const role = await assignableRole(tx, actor, body.roleId, org);
    set('roleId', role.id, 'role');
    newRoleName = role.name;
    changes.isAdmin = role.name === SYSTEM_ROLES.admin || role.name === SYSTEM_ROLES.superAdmin;
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
  if (changes.isActive === false) await revokeUserSessions(tx, user.id);
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

/**
 * PUT /api/auth/users/:id/activate and /deactivate: `isActive` (and so `enabled`) set; deactivation
 * ends every session of the user at once. Nobody deactivates themselves.
 */
async function setUserActiveIn(tx: Db, actor: Actor, userId: string, active: boolean) {
  const { user } = await userInScope(tx, actor, userId);
  if (!active && user.id === actor.userId) throw forbidden(messages.users.cannotDeactivateSelf);
  if (user.id !== actor.userId) await assertManageable(tx, actor, user.roleId);
  if (user.isActive === active) return;
  await updateUserRecord(tx, user.id, { isActive: active });
  if (!active) await revokeUserSessions(tx, user.id);
  await recordActivity(tx, {
    organizationId: user.organizationId,
    actorUserId: actor.userId,
    action: 'updated',
    entityType: 'user',
    entityId: user.id,
    message: `${active ? 'Activated' : 'Deactivated'} ${user.username}`,
  });
}

/** POST /api/auth/users/:id/resend-invite: a new link (the old one stops working) for a user without a password. */
async function resendInviteIn(tx: Db, actor: Actor, userId: string, delivery: InviteDelivery) {
  const { user } = await userInScope(tx, actor, userId);
  if (user.passwordHash !== null) throw conflict(messages.users.inviteAlreadyAccepted);
  await assertManageable(tx, actor, user.roleId);
  // issueOneTimeToken voids the user's earlier invite tokens.
  const token = await issueOneTimeToken(tx, user.id, 'invite', INVITE_VALID_HOURS);
  const outboxId = await delivery.mailer.enqueue(
    tx,
    inviteMail(user.email, resetLink(delivery.baseUrl, token)),
  );
  await recordActivity(tx, {
    organizationId: user.organizationId,
    actorUserId: actor.userId,
    action: 'other',
    entityType: 'user',
    entityId: user.id,
    message: `Sent a new invitation to ${user.username} (${user.email})`,
  });
  return { outboxId };
}

// What the routes call: each opens its own transaction, and sends its mail once it has committed.

function inviteDelivery(app: FastifyInstance): InviteDelivery {
  return { mailer: app.mailer, baseUrl: app.env.publicOrigin };
}

/**
 * Usernames and emails are unique across the portal, so "already exists" tells a tenant that one is
 * in use, perhaps in another organization. That disclosure is bounded and audited (docs/decisions/
 * 023): each such refusal to a tenant's user is recorded in the organization's activity, and after
 * IDENTITY_CONFLICTS_PER_HOUR of them the organization's invitations and username changes all
 * answer 429 until the hour has passed, taken or not, so the pause itself tells nothing.
 */
export const IDENTITY_CONFLICTS_PER_HOUR = 10;
const IDENTITY_CONFLICT_WINDOW_MS = 60 * 60_000;

async function boundIdentityConflicts<T>(
  app: FastifyInstance,
  actor: Actor,
  tried: string,
  work: () => Promise<T>,
): Promise<T> {
  const scope = tenantScope(actor);
  if (scope === null) return work();
  const key = `identity-conflicts:org:${scope}`;
  if ((await countInWindow(app.db, key, IDENTITY_CONFLICT_WINDOW_MS)) >= IDENTITY_CONFLICTS_PER_HOUR) {
    throw tooManyRequests(messages.users.tooManyConflicts);
  }
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.message === messages.users.duplicate) {
      await countHit(app.db, key, IDENTITY_CONFLICT_WINDOW_MS);
      await recordActivity(app.db, {
        organizationId: scope,
        actorUserId: actor.userId,
        action: 'other',
        entityType: 'user',
        entityId: null,
        message: `Refused: the username or email of ${tried} is already in use`,
      });
    }
    throw error;
  }
}

/** POST /api/auth/users and register: the new user's id, the invite email sent. */
export async function inviteUser(
  app: FastifyInstance,
  actor: Actor,
  input: CreateUserBody,
  options: CreateUserOptions,
): Promise<string> {
  const tried = describeIdentity(input);
  const created = await boundIdentityConflicts(app, actor, tried, () =>
    app.db.transaction((tx) => createUserIn(tx, actor, input, inviteDelivery(app), options)),
  );
  await app.mailer.deliver(app.db, created.outboxId);
  return created.user.id;
}

/** What an audit entry names of a refused identity: the typed username and email, cut short. */
function describeIdentity(input: { username?: unknown; email?: unknown }): string {
  const part = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 120) : '');
  return [part(input.username), part(input.email)].filter(Boolean).join(' / ') || 'a user';
}

export async function updateUser(app: FastifyInstance, actor: Actor, userId: string, body: UpdateUserBody) {
  const work = () => app.db.transaction((tx) => updateUserIn(tx, actor, userId, body));
  // Only a new username can meet another organization's; the email never changes.
  if (body.username === undefined) return work();
  await boundIdentityConflicts(app, actor, describeIdentity({ username: body.username }), work);
}

export async function setUserActive(app: FastifyInstance, actor: Actor, userId: string, active: boolean) {
  await app.db.transaction((tx) => setUserActiveIn(tx, actor, userId, active));
}

export async function resendInvite(app: FastifyInstance, actor: Actor, userId: string) {
  const { outboxId } = await app.db.transaction((tx) =>
    resendInviteIn(tx, actor, userId, inviteDelivery(app)),
  );
  await app.mailer.deliver(app.db, outboxId);
}

function filterFor(actor: Actor, query: UserFilterQuery): UserFilter {
  const scope = tenantScope(actor);
  // Naming another tenant answers as if it did not exist, for the list and the export.
  if (scope !== null && query.organizationId !== undefined && query.organizationId !== scope) {
    throw notFound(messages.users.organizationNotFound);
  }
  return {
    scope: tenantScope(actor),
    organizationId: query.organizationId,
    search: query.search,
    role: query.role,
    status: query.status,
  };
}

type UserFilterQuery = Pick<
  UserListQuery,
  'search' | 'role' | 'status' | 'organizationId' | 'sort' | 'order'
>;

/** GET /api/auth/users: one page, filtered, searched and sorted in the database, within the tenant. */
export async function listUsers(db: Db, actor: Actor, query: UserListQuery) {
  const { rows, version, total } = await listUserPage(db, filterFor(actor, query), query, query);
  return {
    data: await userDtosAt(db, rows, version),
    meta: { page: query.page, pageSize: query.pageSize, total },
  };
}

/**
 * Every user matching the list's filters, in list order, in batches (for the export). The filter is
 * checked now, so a refusal is an error answer rather than a broken download.
 */
export function usersForExport(db: Db, actor: Actor, query: UserFilterQuery): AsyncIterable<User[]> {
  const filter = filterFor(actor, query);
  return (async function* () {
    for await (const batch of iterateUserRows(db, filter, query)) yield await toUserDtos(db, batch);
  })();
}
