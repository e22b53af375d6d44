import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { messages, PASSWORD_RESET_VALID_HOURS } from '@portal/shared';
import { users } from '../../db/schema/index.js';
import { AppError, badRequest, tooManyRequests, unauthorized } from '../../lib/errors.js';
import { randomToken, safeEqual, sha256Hex } from '../../lib/tokens.js';
import { countHit } from '../platform/rate-limit.repo.js';
import { recordActivity } from '../activity/activity.repo.js';
import { csrfTokenFor, type IssuedTokens } from './cookies.js';
import { userDtosAt } from '../users/user-dto.repo.js';
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens.repo.js';
import {
  findSessionByRefreshHash,
  insertSession,
  markRotated,
  revokeFamily,
  revokeUserSessions,
} from './sessions.repo.js';
import { recordSignInAttempt } from './sign-in.repo.js';

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

/** Matches no user: the failed-attempt update of an unknown account. */
const NO_USER_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Wrong password, unknown account, locked, inactive or not yet activated: one answer, and always one
 * hash verification and the same statements, so neither the body nor the timing tells them apart.
 */
export async function login(app: FastifyInstance, identifier: string, password: string, client: ClientInfo) {
  const { loginPerAddress, windowMs, lockoutThreshold, lockoutMs } = app.config.limits;
  const { hits, candidate: user } = await recordSignInAttempt(app.db, identifier.trim().toLowerCase(), {
    key: `login:ip:${client.ip}`,
    windowMs,
  });
  if (hits > loginPerAddress) throw tooManyRequests(messages.login.tooManyAttempts);
  const passwordMatches = await app.hasher.verify(user?.passwordHash ?? null, password);
  const locked = !!user?.lockedUntil && user.lockedUntil > new Date();

  if (!user || !passwordMatches || locked || !user.isActive) {
    // The same statement for an unknown account (it matches no row): skipping it answered unknown
    // accounts ~2.5 ms sooner, a tenth of a verification (test/signin-timing.test.ts).
    const failures = (user?.failedLoginCount ?? 0) + 1;
    const lock = failures >= lockoutThreshold;
    await app.db
      .update(users)
      .set({
        failedLoginCount: lock ? 0 : failures,
        lockedUntil: lock ? new Date(Date.now() + lockoutMs) : (user?.lockedUntil ?? null),
      })
      .where(eq(users.id, user?.id ?? NO_USER_ID));
    throw unauthorized(messages.login.invalidCredentials);
  }

  if (user.failedLoginCount > 0 || user.lockedUntil) {
    await app.db.update(users).set({ failedLoginCount: 0, lockedUntil: null }).where(eq(users.id, user.id));
  }
  // The answer comes from the row already read (role and organization from the identity cache).
  const [answer] = await userDtosAt(app.db, [user], user.version);
  if (!answer) throw unauthorized(messages.login.invalidCredentials);
  const tokens = await issueSession(app, user.id, randomUUID(), client);
  return { user: answer, tokens };
}

/** Rotates the refresh token. A rotated token presented again revokes its whole family. */
export async function refresh(
  app: FastifyInstance,
  refreshToken: string | undefined,
  csrfHeader: unknown,
  client: ClientInfo,
) {
  if (!refreshToken) throw unauthorized(messages.login.sessionExpired);
  const session = await findSessionByRefreshHash(app.db, sha256Hex(refreshToken));
  if (!session || session.revokedAt) throw unauthorized(messages.login.sessionExpired);

  const expectedCsrf = csrfTokenFor(app.secrets.session, session.familyId);
  if (typeof csrfHeader !== 'string' || !safeEqual(csrfHeader, expectedCsrf)) {
    throw new AppError(403, messages.http.csrf, 'CSRF');
  }
  if (session.rotatedAt || !(await markRotated(app.db, session.id))) {
    app.log.warn(
      { familyId: session.familyId, userId: session.userId },
      'refresh token reuse: family revoked',
    );
    await revokeFamily(app.db, session.familyId);
    throw unauthorized(messages.login.sessionExpired);
  }
  if (session.refreshExpiresAt <= new Date()) throw unauthorized(messages.login.sessionExpired);

  const [user] = await app.db
    .select({ isActive: users.isActive })
    .from(users)
    .where(eq(users.id, session.userId));
  if (!user?.isActive) {
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

/** Answers the same whether or not the email exists (DECISIONS.md). */
export async function forgotPassword(app: FastifyInstance, email: string, baseUrl: string, ip: string) {
  const { forgotPerAddress, windowMs } = app.config.limits;
  if ((await countHit(app.db, `forgot:ip:${ip}`, windowMs)) > forgotPerAddress) {
    throw tooManyRequests();
  }
  const [user] = await app.db
    .select({ id: users.id, email: users.email, isActive: users.isActive })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (!user || !user.isActive) return;
  const outboxId = await app.db.transaction(async (tx) => {
    const token = await issueOneTimeToken(tx, user.id, 'password_reset', PASSWORD_RESET_VALID_HOURS);
    return app.mailer.enqueue(tx, {
      to: user.email,
      subject: 'Reset your password',
      text: `A password reset was requested for your account.\n\nSet a new password: ${resetLink(baseUrl, token)}\n\nThe link works once and expires in ${PASSWORD_RESET_VALID_HOURS} hour. If you did not ask for it, ignore this email.`,
    });
  });
  await app.mailer.deliver(app.db, outboxId);
}

/** Sets the password from an invite or reset link; ends every session of the user. */
export async function resetPassword(app: FastifyInstance, token: string, password: string) {
  const passwordHash = await app.hasher.hash(password);
  await app.db.transaction(async (tx) => {
    const owner = await consumeOneTimeToken(tx, token);
    if (!owner) throw badRequest(messages.login.resetInvalid);
    const [user] = await tx
      .update(users)
      .set({
        passwordHash,
        passwordChangedAt: new Date(),
        failedLoginCount: 0,
        lockedUntil: null,
        updatedAt: new Date(),
      })
      .where(eq(users.id, owner.userId))
      .returning({ id: users.id, organizationId: users.organizationId });
    if (!user) throw badRequest(messages.login.resetInvalid);
    await revokeUserSessions(tx, user.id);
    await recordActivity(tx, {
      organizationId: user.organizationId,
      actorUserId: user.id,
      action: 'updated',
      entityType: 'user',
      entityId: user.id,
      message:
        owner.purpose === 'invite' ? 'Accepted the invitation and set a password' : 'Reset the password',
    });
  });
}
