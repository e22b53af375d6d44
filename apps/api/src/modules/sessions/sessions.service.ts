import { randomUUID } from 'node:crypto';
import { messages, REQUIREMENTS, meets, type ActiveSession } from '@portal/shared';
import { deviceName } from '../../lib/device-name.js';
import { forbidden, notFound, unauthorized } from '../../lib/errors.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import type { Actor, AnyActor, SystemActor, Visitor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { checkCsrfToken, csrfTokenFor, type IssuedTokens } from '../../plugins/session-cookies.js';
import {
  deleteEndedSessions,
  findActiveSessionByAccessHash,
  findSessionByRefreshHash,
  findSessionOwner,
  insertSession,
  listActiveFamilies,
  markFamilySecondFactor,
  revokeFamily,
  revokeFamilyOfUser,
  revokeUserSessions,
  rotateRefreshToken,
  sessionIdentity,
} from './sessions.repo.js';

/** The signed-in user's browsers, newest use first; `current` is the one asking. */
export async function listSessions(deps: Deps, actor: Actor): Promise<ActiveSession[]> {
  const families = await listActiveFamilies(deps.db, actor.userId);
  return families.map((f) => ({
    id: f.familyId,
    device: deviceName(f.userAgent),
    address: f.ipAddress,
    signedInAt: f.signedInAt.toISOString(),
    lastUsedAt: f.lastUsedAt.toISOString(),
    current: f.familyId === actor.familyId,
  }));
}

/**
 * Ends one of the user's own sessions: that browser is refused at its next request, on any API
 * process, because every request reads its session from the database.
 */
export async function endSession(deps: Deps, actor: Actor, input: { id: string }) {
  if (!(await revokeFamilyOfUser(deps.db, actor.userId, input.id))) {
    throw notFound(messages.sessions.notFound);
  }
}

/** Ends every session of the actor but the one asking; answers how many browsers were signed out. */
export async function endOtherSessions(deps: Deps, actor: Actor): Promise<number> {
  return revokeUserSessions(deps.db, actor.userId, actor.familyId);
}

/**
 * The platform operator signs a user out everywhere (a lost laptop, a departing employee). Whether
 * the actor may manage that user is the caller's check (users), made before this.
 */
export async function endUserSessions(deps: Deps, actor: Actor, input: { userId: string }): Promise<number> {
  if (!meets(actor, REQUIREMENTS.endUserSessions)) throw forbidden();
  const user = await findSessionOwner(deps.db, input.userId);
  if (!user) throw notFound(messages.users.notFound);
  return deps.db.transaction(async (tx) => {
    const ended = await revokeUserSessions(tx, user.id);
    await recordActivity(tx, {
      organizationId: user.organizationId,
      actorUserId: actor.userId,
      action: 'updated',
      entityType: 'user',
      entityId: user.id,
      message: `Ended every session of ${user.username}`,
    });
    return ended;
  });
}

/**
 * Ends every session of a user as part of another change (a new password, deactivation, a reset
 * second factor), which records itself; answers how many browsers were signed out.
 */
export async function revokeAllSessions(deps: Deps, _actor: AnyActor, input: { userId: string }) {
  return revokeUserSessions(deps.db, input.userId);
}

/** Ends one session family (sign-out, a refresh refused). */
export async function endSessionFamily(deps: Deps, _actor: AnyActor, input: { familyId: string }) {
  await revokeFamily(deps.db, input.familyId);
}

/** The actor's session family passed a second factor (the enrolment that confirmed a code in it). */
export async function markSecondFactor(deps: Deps, actor: Actor) {
  await markFamilySecondFactor(deps.db, actor.familyId);
}

/**
 * A new token pair for a user who passed sign-in: in a new family, or in `familyId` (a refresh). The
 * family records whether a second factor was among the steps: one opened with the password alone
 * is refused once the account has a factor (plugins/access.ts), so enrolling later never promotes it.
 */
export async function issueSession(
  deps: Deps,
  actor: Visitor,
  input: { userId: string; secondFactor: boolean; familyId?: string },
): Promise<IssuedTokens> {
  const { accessMs, refreshMs } = deps.config.sessionTtl;
  const familyId = input.familyId ?? randomUUID();
  const accessToken = randomToken();
  const refreshToken = randomToken();
  await insertSession(deps.db, {
    familyId,
    userId: input.userId,
    accessTokenHash: sha256Hex(accessToken),
    refreshTokenHash: sha256Hex(refreshToken),
    accessExpiresAt: new Date(Date.now() + accessMs),
    refreshExpiresAt: new Date(Date.now() + refreshMs),
    ipAddress: actor.address,
    userAgent: actor.userAgent?.slice(0, 300),
    secondFactor: input.secondFactor,
  });
  return {
    accessToken,
    refreshToken,
    csrfToken: csrfTokenFor(deps.secrets.session, familyId),
    accessMaxAgeMs: accessMs,
    refreshMaxAgeMs: refreshMs,
  };
}

/**
 * Spends a refresh token: checks its family's CSRF token and rotates it. The same token presented
 * again within `rotatedGraceMs` (two tabs refreshing at once) passes too; later, it revokes the whole
 * family. Answers the session to continue (`issueSession` with its family) once its user is checked.
 */
export async function rotateSession(
  deps: Deps,
  _actor: Visitor,
  input: { refreshToken: string | undefined; csrfToken: unknown },
) {
  if (!input.refreshToken) throw unauthorized(messages.login.sessionExpired);
  const session = await findSessionByRefreshHash(deps.db, sha256Hex(input.refreshToken));
  if (!session || session.revokedAt) throw unauthorized(messages.login.sessionExpired);

  checkCsrfToken(deps.secrets.session, session.familyId, input.csrfToken);
  const rotation = await rotateRefreshToken(deps.db, session.id, deps.config.sessionTtl.rotatedGraceMs);
  if (rotation === 'reused') {
    deps.log.warn(
      { familyId: session.familyId, userId: session.userId },
      'refresh token reuse: family revoked',
    );
    await revokeFamily(deps.db, session.familyId);
    throw unauthorized(messages.login.sessionExpired);
  }
  if (session.refreshExpiresAt <= new Date()) throw unauthorized(messages.login.sessionExpired);
  return { userId: session.userId, familyId: session.familyId, secondFactor: session.secondFactor };
}

/**
 * The live session of an access token and who its user is (organization, role, state), for the
 * access plugin on every signed-in request: one single-table statement, the rest from the identity
 * cache of the version read with it (a second statement only after a change to users or roles).
 */
export async function findSession(deps: Deps, _actor: SystemActor, input: { accessToken: string }) {
  const session = await findActiveSessionByAccessHash(deps.db, sha256Hex(input.accessToken));
  if (!session) return null;
  const identity = await sessionIdentity(deps.db, session.userId, session.version);
  return identity && { ...session, identity };
}

/**
 * Housekeeping: deletes sessions whose refresh token has expired. Neither of their tokens is accepted
 * any more, and a replay of one is refused as unknown.
 */
export function pruneEndedSessions(deps: Deps, _actor: SystemActor, input: { now: Date }): Promise<number> {
  return deleteEndedSessions(deps.db, input.now);
}
