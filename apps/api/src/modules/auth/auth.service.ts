import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  formatDateTime,
  messages,
  PASSWORD_RESET_VALID_HOURS,
  TOTP_CODE_PATTERN,
  type SessionUser,
  type SignInChallenge,
} from '@portal/shared';
import { deviceName } from '../../lib/device-name.js';
import { badRequest, tooManyRequests, unauthorized } from '../../lib/errors.js';
import { hmacSha256, randomToken, sha256Hex } from '../../lib/tokens.js';
import { countHit, countInWindow } from '../../core/rate-limits.repo.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { setPasswordHash } from '../password/password.repo.js';
import { findActiveUserByEmail } from './accounts.repo.js';
import { checkCsrfToken, csrfTokenFor, DEVICE_TOKEN_PATTERN, type IssuedTokens } from './cookies.js';
import { findUserDto, userDtosAt } from '../../core/identity/users.repo.js';
import { findTwoFactorState } from '../two-factor/two-factor.repo.js';
import { openChallenge, sealChallenge } from '../two-factor/challenge.js';
import { stepOfCode } from '../two-factor/two-factor.service.js';
import { recoveryCodeHash } from '../two-factor/totp.js';
import { rememberDevice } from './known-devices.repo.js';
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens.repo.js';
import { findLiveOneTimeToken } from './one-time-tokens.repo.js';
import {
  findSessionByRefreshHash,
  insertSession,
  revokeFamily,
  revokeUserSessions,
  rotateRefreshToken,
} from './sessions.repo.js';
import {
  clearSignInFailures,
  recordSignInAttempt,
  recordCodeFailure,
  recordSignInFailure,
  runSecondStep,
} from './sign-in.repo.js';

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
  /** The browser's device cookie, when it has one (new-device emails). */
  deviceToken: string | undefined;
}

async function issueSession(
  app: FastifyInstance,
  userId: string,
  familyId: string,
  secondFactor: boolean,
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
    secondFactor,
  });
  return {
    accessToken,
    refreshToken,
    csrfToken: csrfTokenFor(app.secrets.session, familyId),
    accessMaxAgeMs: accessMs,
    refreshMaxAgeMs: refreshMs,
  };
}

export interface SignedIn {
  user: SessionUser;
  tokens: IssuedTokens;
  /** The browser's device cookie to set (its own, or a new one). */
  deviceToken: string;
}

/**
 * A new session family for a user who passed every step, and the browser remembered. The family
 * records whether a second factor was among the steps: one opened with the password alone is refused
 * once the account has a factor (plugins/access.ts), so enrolling later never promotes it.
 */
async function signedIn(app: FastifyInstance, user: SessionUser, client: ClientInfo): Promise<SignedIn> {
  const tokens = await issueSession(app, user.id, randomUUID(), user.twoFactor.enabled, client);
  const deviceToken = await noticeDevice(app, user, client);
  return { user, tokens, deviceToken };
}

export type LoginOutcome =
  ({ kind: 'signedIn' } & SignedIn) | { kind: 'challenge'; challenge: SignInChallenge };

/**
 * Wrong password, unknown account, locked, inactive or not yet activated: one answer, and always one
 * hash verification and the same statements, so neither the body nor the timing tells them apart.
 * The lock counts failures per account AND address: a stranger's failures lock out the stranger,
 * not the owner elsewhere (docs/decisions/010-sign-in-lock-per-address.md). With a second factor the
 * password step answers a challenge, and failures are forgotten only once the code is right too.
 */
export async function login(
  app: FastifyInstance,
  identifier: string,
  password: string,
  client: ClientInfo,
): Promise<LoginOutcome> {
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

  if (user.secretCiphertext !== null) {
    const { token, expiresAt } = sealChallenge(app.secrets.twoFactor.challengeKey, {
      userId: user.id,
      issuedAt: new Date(),
      secretCiphertext: user.secretCiphertext,
    });
    return {
      kind: 'challenge',
      challenge: { twoFactorRequired: true, challenge: token, expiresAt: expiresAt.toISOString() },
    };
  }

  if (user.failuresFromAddress > 0) await clearSignInFailures(app.db, user.id, client.ip);
  // The answer comes from the row already read (role and organization from the identity cache).
  const [answer] = await userDtosAt(app.db, [user], user.version);
  if (!answer) throw unauthorized(messages.login.invalidCredentials);
  const twoFactor = { enabled: false, required: user.twoFactorRequired };
  return { kind: 'signedIn', ...(await signedIn(app, { ...answer, twoFactor }, client)) };
}

/**
 * The second step: the password step's challenge and a code from the authenticator (or a recovery
 * code). A wrong code, a code used before and a locked account get one answer through the same
 * statements, and each failure counts toward the account's lock like a wrong password. No address
 * limit here: only the password step hands out challenges, and it counts each one.
 */
export async function completeSignIn(
  app: FastifyInstance,
  challengeToken: string,
  code: string,
  client: ClientInfo,
): Promise<SignedIn> {
  const { lockoutThreshold, lockoutMs, codeFailuresPerAccount } = app.config.limits;
  const challenge = openChallenge(app.secrets.twoFactor.challengeKey, challengeToken, Date.now());
  if (!challenge) throw unauthorized(messages.twoFactor.challengeExpired);
  const typed = code.replace(/\s+/g, '');
  const attempt = await runSecondStep(app.db, {
    ...challenge,
    code: TOTP_CODE_PATTERN.test(typed)
      ? { step: stepOfCode(app, challenge.secretCiphertext, typed) }
      : { recoveryHash: recoveryCodeHash(app.secrets.twoFactor.recoveryKey, code) },
    address: client.ip,
    lockWindowMs: lockoutMs,
    lockoutThreshold,
    codeFailureLimit: codeFailuresPerAccount,
  });
  if (!attempt || attempt.outcome === 'spent') throw unauthorized(messages.twoFactor.challengeExpired);
  if (attempt.outcome === 'refused') {
    const fromAllAddresses = await recordCodeFailure(app.db, attempt.id, client.ip, lockoutMs);
    // Once per window, as the cap is reached: whoever is guessing has the password.
    if (fromAllAddresses === codeFailuresPerAccount) mailCodeFailures(app, attempt, client);
    throw unauthorized(messages.twoFactor.codeInvalid);
  }
  if (attempt.failuresFromAddress > 0) await clearSignInFailures(app.db, attempt.id, client.ip);
  // The answer comes from the row already read (role and organization from the identity cache).
  const [answer] = await userDtosAt(app.db, [attempt], attempt.version);
  if (!answer) throw unauthorized(messages.twoFactor.challengeExpired);
  const twoFactor = { enabled: true, required: attempt.twoFactorRequired };
  return signedIn(app, { ...answer, twoFactor }, client);
}

/** The signed-in user as the web app needs it: the user and their two-factor state. */
export async function findSessionUser(
  db: FastifyInstance['db'],
  userId: string,
): Promise<SessionUser | null> {
  const [user, twoFactor] = await Promise.all([findUserDto(db, userId), findTwoFactorState(db, userId)]);
  return user && { ...user, twoFactor };
}

/**
 * Remembers the browser (a long-lived random cookie, kept as a keyed hash) and mails the owner when
 * it is new to an account that has signed in elsewhere before; answers the cookie to set.
 */
async function noticeDevice(app: FastifyInstance, user: SessionUser, client: ClientInfo): Promise<string> {
  const deviceToken =
    client.deviceToken && DEVICE_TOKEN_PATTERN.test(client.deviceToken) ? client.deviceToken : randomToken();
  const deviceHash = hmacSha256(app.secrets.twoFactor.deviceKey, deviceToken);
  const outboxId = await app.db.transaction(async (tx) => {
    if ((await rememberDevice(tx, user.id, deviceHash)) !== 'new') return null;
    return app.mailer.enqueue(tx, newDeviceMail(app, user, client));
  });
  if (outboxId) app.background.run('new device email', () => app.mailer.deliver(app.db, outboxId));
  return deviceToken;
}

function newDeviceMail(app: FastifyInstance, user: SessionUser, client: ClientInfo) {
  return {
    to: user.email,
    subject: messages.twoFactor.newDeviceSubject,
    text: [
      'Your account was signed in to from a browser it had not been used from before.',
      '',
      `Time: ${formatDateTime(new Date())} (India Standard Time)`,
      `Device: ${deviceName(client.userAgent)}`,
      `Address: ${client.ip}`,
      '',
      'If this was you, there is nothing to do. If it was not, end that session and change your password:',
      `${app.env.publicOrigin}/dashboard/settings?section=sessions`,
    ].join('\n'),
  };
}

/**
 * Tells the owner that codes are refused for a while after many wrong ones, and that whoever typed
 * them knew the password. Sent after the answer, so the request that reaches the cap takes no longer.
 */
function mailCodeFailures(app: FastifyInstance, user: { email: string }, client: ClientInfo) {
  const { codeFailuresPerAccount, lockoutMs } = app.config.limits;
  app.background.run('code failures email', async () => {
    const outboxId = await app.mailer.enqueue(app.db, {
      to: user.email,
      subject: messages.twoFactor.codeFailuresSubject,
      text: [
        `Your password was entered correctly, then ${codeFailuresPerAccount} wrong sign-in codes, the last at ${formatDateTime(new Date())} (India Standard Time) from ${client.ip}.`,
        `Sign-in codes for your account are refused for the next ${lockoutMs / 60_000} minutes.`,
        '',
        'If this was not you, someone knows your password. Set a new one now; that also lets you sign in again at once:',
        `${app.env.publicOrigin}/auth/forgot-password`,
      ].join('\n'),
    });
    await app.mailer.deliver(app.db, outboxId);
  });
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

  // A family opened without the second factor ends once its account has one (the thief who had
  // only the password, when the owner enrols).
  const user = await findSessionUser(app.db, session.userId);
  if (!user || !user.isActive || (user.twoFactor.enabled && !session.secondFactor)) {
    await revokeFamily(app.db, session.familyId);
    throw unauthorized(messages.login.sessionExpired);
  }
  const tokens = await issueSession(app, session.userId, session.familyId, session.secondFactor, client);
  return { user, tokens };
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
 * Whether an invite or reset link's token can still set a password, without using it: the reset
 * (below) and the page that checks its link when it opens (`POST /reset-password/check`) ask alike.
 * Unknown, used and expired tokens answer alike, and each counts against the address's limit, which
 * only tokens that were not live spend: neither route is a cheaper way to guess than the other.
 */
export async function isLinkTokenLive(app: FastifyInstance, token: string, address: string) {
  const { resetPerAddress, windowMs } = app.config.limits;
  const failures = `reset:ip:${address}`;
  if ((await countInWindow(app.db, failures, windowMs)) >= resetPerAddress) throw tooManyRequests();
  const live = await findLiveOneTimeToken(app.db, token);
  if (!live) await countHit(app.db, failures, windowMs);
  return live;
}

/**
 * Sets the password from an invite or reset link; ends every session of the user and forgets their
 * failed sign-ins. The token is checked before the password is hashed, so a made-up token costs one
 * lookup, not a hash. The address's limit counts only tokens that were not live: an office behind
 * one address can accept any number of invitations.
 */
export async function resetPassword(app: FastifyInstance, token: string, password: string, address: string) {
  if (!(await isLinkTokenLive(app, token, address))) throw badRequest(messages.login.resetInvalid);
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
