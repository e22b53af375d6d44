import {
  createUserBodySchema,
  hasPermission,
  INVITE_VALID_HOURS,
  messages,
  SYSTEM_ROLES,
  type CreateUserBody,
  type FeatureKey,
  type PermissionEntry,
  type Scope,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import {
  badRequest,
  conflict,
  forbidden,
  isUniqueViolation,
  notFound,
  type FieldErrors,
} from '../../lib/errors.js';
import type { AuthContext } from '../../plugins/access.js';
import { recordActivity } from '../activity/activity.repo.js';
import { resetLink } from '../auth/auth.service.js';
import { issueOneTimeToken } from '../auth/one-time-tokens.repo.js';
import type { Mailer } from '../mail/mail.service.js';
import { loadRolePermissions } from '../roles/permissions.repo.js';
import {
  findOrganizationById,
  findRoleById,
  findUserHoldingIdentity,
  insertOrganizationIfMissing,
  insertUser,
  type UserRecord,
} from './users.repo.js';

/** Who is acting: the request's `request.auth`. */
export type Actor = Pick<AuthContext, 'userId' | 'organizationId' | 'isSuperAdmin' | 'permissions'>;

/** null for super_admin (every tenant), otherwise the actor's organization (same as `tenantScope`). */
export function actorScope(actor: Actor): string | null {
  return actor.isSuperAdmin ? null : actor.organizationId;
}

export function actorCan(actor: Actor, feature: FeatureKey, scope: Scope): boolean {
  return actor.isSuperAdmin || hasPermission(actor.permissions, feature, scope);
}

/** Where the invite link points and how its email leaves. */
export interface InviteDelivery {
  mailer: Mailer;
  /** Public base URL of the portal, e.g. `publicBaseUrl(app, request)` from auth.routes. */
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

function firstIssue(issues: readonly { path: PropertyKey[]; message: string }[]) {
  const errors: FieldErrors = {};
  for (const issue of issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
  return badRequest(issues[0]?.message ?? messages.http.validation, errors);
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
    if (!withinPermissions(granted, actor.permissions)) throw forbidden(messages.roles.scopeNotHeld);
  }
  return role;
}

function withinPermissions(granted: readonly PermissionEntry[], held: readonly PermissionEntry[]): boolean {
  return granted.every((g) =>
    g.permissionScopes.every((scope) =>
      held.some((h) => h.featureId === g.featureId && h.permissionScopes.includes(scope)),
    ),
  );
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
 * ever set here (DECISIONS.md "No default password"; a `password` in the input is ignored).
 * Runs inside the caller's transaction `tx`, so a caller can create the organization, user,
 * subscription and payment at once (billing onboarding). Validates `input` with
 * `createUserBodySchema` itself, so callers may pass a raw body. Throws AppError:
 * 400 (first field rule of SPEC.md §5, 'organizationId is required', 'roleId is required'),
 * 403 (new organization without Organization Management CREATE; a role wider than the actor's),
 * 404 (organization of another tenant, unknown role or one not visible to the organization),
 * 409 `messages.users.duplicate` (username or email taken, case-insensitive).
 * After commit, call `mailer.deliver(db, outboxId)` and read the answer with `findUserDto`.
 */
export async function createUser(
  tx: Db,
  actor: Actor,
  input: CreateUserBody,
  delivery: InviteDelivery,
  options: CreateUserOptions = { allowNewOrganization: true },
): Promise<CreatedUser> {
  const parsed = createUserBodySchema.safeParse(input);
  if (!parsed.success) throw firstIssue(parsed.error.issues);
  const data = parsed.data;
  const scope = actorScope(actor);

  let org = await findOrganizationById(tx, data.organizationId);
  let organizationCreated = false;
  if (org) {
    if (scope !== null && org.id !== scope) throw notFound(messages.users.organizationNotFound);
  } else {
    if (!options.allowNewOrganization) throw notFound(messages.users.organizationNotFound);
    if (!actorCan(actor, 'organizations', 'CREATE')) throw forbidden();
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
