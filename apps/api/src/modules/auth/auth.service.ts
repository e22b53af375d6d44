import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { messages, PASSWORD_RESET_VALID_HOURS } from '@portal/shared';
import { badRequest, tooManyRequests, unauthorized } from '../../lib/errors.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import { countHit, countInWindow } from '../platform/rate-limit.repo.js';
import { recordActivity } from '../activity/activity.repo.js';
import { setPasswordHash } from '../password/password.repo.js';
import { findActiveUserByEmail, isUserActive } from './accounts.repo.js';
import { checkCsrfToken, csrfTokenFor, type IssuedTokens } from './cookies.js';
import { userDtosAt } from '../users/user-dto.repo.js';
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens.repo.js';
import { findLiveOneTimeToken } from './one-time-tokens.repo.js';
import {
  findSessionByRefreshHash,
  insertSession,
  revokeFamily,
  revokeUserSessions,
  rotateRefreshToken,
} from './sessions.repo.js';
import { clearSignInFailures, recordSignInAttempt, recordSignInFailure } from './sign-in.repo.js';

interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

async function issueSession(
  app: FastifyInstance,
  userId: string,
  familyId: string,
  client: ClientInfo,
): Promise<IssuedTokens> {
  const { accessMs, refreshMs } = app.config.sessionTtl;
  const accessToken = randomToken();
  const refreshToken = randomToken();
  await insertSession(app.db, {
    familyId,
    userId,
    accessTokenHash: sha256Hex(accessToken),
    refreshTokenHash: sha256Hex(refreshToken),
    accessExpiresAt: new Date(Date.now() + accessMs),
    refreshExpiresAt: new Date(Date.now() + refreshMs),
    ipAddress: client.ip,
    userAgent: client.userAgent?.slice(0, 300),
  });
  return {
    accessToken,
    refreshToken,
    csrfToken: csrfTokenFor(app.secrets.session, familyId),
    accessMaxAgeMs: accessMs,
    refreshMaxAgeMs: refreshMs,
  };
}

/**
 * Wrong password, unknown account, locked, inactive or not yet activated: one answer, and always one
 * hash verification and the same statements, so neither the body nor the timing tells them apart.
 * The lock counts failures per account AND address: a stranger's failures lock out the stranger,
 * not the owner elsewhere (docs/decisions/010-sign-in-lock-per-address.md).
 */
export async function login(app: FastifyInstance, identifier: string, password: string, client: ClientInfo) {
  const { loginPerAddress, windowMs, lockoutThreshold, lockoutMs } = app.config.limits;
  const subject = identifier.trim().toLowerCase();
  const { hits, candidate: user } = await recordSignInAttempt(app.db, subject, client.ip, {
    addressKey: `login:ip:${client.ip}`,
    addressWindowMs: windowMs,
    lockWindowMs: lockoutMs,
  });
  if (hits > loginPerAddress) throw tooManyRequests(messages.login.tooManyAttempts);
  const passwordMatches = await app.hasher.verify(user?.passwordHash ?? null, password);
  const locked = (user?.failuresFromAddress ?? 0) >= lockoutThreshold;

  if (!user || !passwordMatches || locked || !user.isActive) {
    // The same statement for an unknown account, keyed by what it was asked for.
    await recordSignInFailure(app.db, user?.id ?? subject, client.ip, lockoutMs);
    throw unauthorized(messages.login.invalidCredentials);
  }

  if (user.failuresFromAddress > 0) await clearSignInFailures(app.db, user.id, client.ip);
  // The answer comes from the row already read (role and organization from the identity cache).
  const [answer] = await userDtosAt(app.db, [user], user.version);
  if (!answer) throw unauthorized(messages.login.invalidCredentials);
  const tokens = await issueSession(app, user.id, randomUUID(), client);
  return { user: answer, tokens };
}

/**
 * Rotates the refresh token. The same token presented again within `rotatedGraceMs` (two tabs
 * refreshing at once) gets a session of the same family too; later, it revokes the whole family.
 */
export async function refresh(
  app: FastifyInstance,
  refreshToken: string | undefined,
  csrfHeader: unknown,
  client: ClientInfo,
) {
  if (!refreshToken) throw unauthorized(messages.login.sessionExpired);
  const session = await findSessionByRefreshHash(app.db, sha256Hex(refreshToken));
  if (!session || session.revokedAt) throw unauthorized(messages.login.sessionExpired);

  checkCsrfToken(app.secrets.session, session.familyId, csrfHeader);
  const rotation = await rotateRefreshToken(app.db, session.id, app.config.sessionTtl.rotatedGraceMs);
  if (rotation === 'reused') {
    app.log.warn(
      { familyId: session.familyId, userId: session.userId },
      'refresh token reuse: family revoked',
    );
    await revokeFamily(app.db, session.familyId);
    throw unauthorized(messages.login.sessionExpired);
  }
  if (session.refreshExpiresAt <= new Date()) throw unauthorized(messages.login.sessionExpired);

  if (!(await isUserActive(app.db, session.userId))) {
    await revokeFamily(app.db, session.familyId);
    throw unauthorized(messages.login.sessionExpired);
  }
  const tokens = await issueSession(app, session.userId, session.familyId, client);
  return { userId: session.userId, tokens };
}

export async function logout(app: FastifyInstance, familyId: string | null) {
  if (familyId) await revokeFamily(app.db, familyId);
}

export function resetLink(baseUrl: string, token: string): string {
  return `${baseUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Answers the same, in body and in time, whether or not the email exists: after the
 * address's limit, the lookup, token and email run once the answer has left (lib/background-tasks.ts).
 */
export async function forgotPassword(app: FastifyInstance, email: string, address: string) {
  const { forgotPerAddress, windowMs } = app.config.limits;
  if ((await countHit(app.db, `forgot:ip:${address}`, windowMs)) > forgotPerAddress) {
    throw tooManyRequests();
  }
  app.background.run('password reset email', () => sendPasswordReset(app, email));
}

async function sendPasswordReset(app: FastifyInstance, email: string) {
  const user = await findActiveUserByEmail(app.db, email);
  if (!user) return;
  const outboxId = await app.db.transaction(async (tx) => {
    const token = await issueOneTimeToken(tx, user.id, 'password_reset', PASSWORD_RESET_VALID_HOURS);
    return app.mailer.enqueue(tx, {
      to: user.email,
      subject: 'Reset your password',
      text: `A password reset was requested for your account.\n\nSet a new password: ${resetLink(app.env.publicOrigin, token)}\n\nThe link works once and expires in ${PASSWORD_RESET_VALID_HOURS} hour. If you did not ask for it, ignore this email.`,
    });
  });
  await app.mailer.deliver(app.db, outboxId);
}

/**
 * Sets the password from an invite or reset link; ends every session of the user and forgets their
 * failed sign-ins. The token is checked before the password is hashed, so a made-up token costs one
 * lookup, not a hash. The address's limit counts only tokens that were not live: an office behind
 * one address can accept any number of invitations.
 */
export async function resetPassword(app: FastifyInstance, token: string, password: string, address: string) {
  const { resetPerAddress, windowMs } = app.config.limits;
  const failures = `reset:ip:${address}`;
  if ((await countInWindow(app.db, failures, windowMs)) >= resetPerAddress) throw tooManyRequests();
  if (!(await findLiveOneTimeToken(app.db, token))) {
    await countHit(app.db, failures, windowMs);
    throw badRequest(messages.login.resetInvalid);
  }
  const passwordHash = await app.hasher.hash(password);
  await app.db.transaction(async (tx) => {
    const owner = await consumeOneTimeToken(tx, token);
    if (!owner) throw badRequest(messages.login.resetInvalid);
    const user = await setPasswordHash(tx, owner.userId, passwordHash);
    if (!user) throw badRequest(messages.login.resetInvalid);
    await revokeUserSessions(tx, owner.userId);
    await clearSignInFailures(tx, owner.userId);
    await recordActivity(tx, {
      organizationId: user.organizationId,
      actorUserId: owner.userId,
      action: 'updated',
      entityType: 'user',
      entityId: owner.userId,
      message:
        owner.purpose === 'invite' ? 'Accepted the invitation and set a password' : 'Reset the password',
    });
  });
}
