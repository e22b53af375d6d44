import { formatDateTime, messages, type SessionUser, type SignInChallenge } from '@portal/shared';
import { deviceName } from '../../lib/device-name.js';
import { tooManyRequests, unauthorized } from '../../lib/errors.js';
import { hmacSha256, randomToken } from '../../lib/tokens.js';
import type { Actor, Visitor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { findUserDto, userDtosAt } from '../../core/identity/users.repo.js';
import {
  clearSignInFailures,
  recordCodeFailure,
  recordSignInFailure,
} from '../../core/sign-in-failures.repo.js';
import { DEVICE_TOKEN_PATTERN, type IssuedTokens } from '../../plugins/session-cookies.js';
import { endSessionFamily, issueSession, rotateSession } from '../sessions/index.js';
import { readSecondStep, signInChallenge, twoFactorState } from '../two-factor/index.js';
import { rememberDevice } from './known-devices.repo.js';
import { recordSignInAttempt, runSecondStep } from './sign-in.repo.js';

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
async function signedIn(
  deps: Deps,
  actor: Visitor,
  user: SessionUser,
  deviceToken: string | undefined,
): Promise<SignedIn> {
  const tokens = await issueSession(deps, actor, { userId: user.id, secondFactor: user.twoFactor.enabled });
  return { user, tokens, deviceToken: await noticeDevice(deps, actor, user, deviceToken) };
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
  deps: Deps,
  actor: Visitor,
  input: { identifier: string; password: string; deviceToken: string | undefined },
): Promise<LoginOutcome> {
  const { loginPerAddress, windowMs, lockoutThreshold, lockoutMs } = deps.config.limits;
  const subject = input.identifier.trim().toLowerCase();
  const { hits, candidate: user } = await recordSignInAttempt(deps.db, subject, actor.address, {
    addressKey: `login:ip:${actor.address}`,
    addressWindowMs: windowMs,
    lockWindowMs: lockoutMs,
  });
  if (hits > loginPerAddress) {
    deps.metrics.business.signIn('throttled');
    throw tooManyRequests(messages.login.tooManyAttempts);
  }
  const passwordMatches = await deps.hasher.verify(user?.passwordHash ?? null, input.password);
  const locked = (user?.failuresFromAddress ?? 0) >= lockoutThreshold;

  if (!user || !passwordMatches || locked || !user.isActive) {
    // The same statement for an unknown account, keyed by what it was asked for.
    await recordSignInFailure(deps.db, user?.id ?? subject, actor.address, lockoutMs);
    deps.metrics.business.signIn(locked ? 'locked' : 'refused');
    if (user && user.failuresFromAddress + 1 === lockoutThreshold) deps.metrics.business.accountLocked();
    throw unauthorized(messages.login.invalidCredentials);
  }

  if (user.secretCiphertext !== null) {
    const challenge = signInChallenge(deps, actor, {
      userId: user.id,
      secretCiphertext: user.secretCiphertext,
    });
    return { kind: 'challenge', challenge };
  }

  if (user.failuresFromAddress > 0) await clearSignInFailures(deps.db, user.id, actor.address);
  // The answer comes from the row already read (role and organization from the identity cache).
  const [answer] = await userDtosAt(deps.db, [user], user.version);
  if (!answer) throw unauthorized(messages.login.invalidCredentials);
  const twoFactor = { enabled: false, required: user.twoFactorRequired };
  const session = await signedIn(deps, actor, { ...answer, twoFactor }, input.deviceToken);
  deps.metrics.business.signIn('succeeded');
  return { kind: 'signedIn', ...session };
}

/**
 * The second step: the password step's challenge and a code from the authenticator (or a recovery
 * code). A wrong code, a code used before and a locked account get one answer through the same
 * statements, and each failure counts toward the account's lock like a wrong password. No address
 * limit here: only the password step hands out challenges, and it counts each one.
 */
export async function completeSignIn(
  deps: Deps,
  actor: Visitor,
  input: { challenge: string; code: string; deviceToken: string | undefined },
): Promise<SignedIn> {
  const { lockoutThreshold, lockoutMs, codeFailuresPerAccount } = deps.config.limits;
  const claim = readSecondStep(deps, actor, input);
  if (!claim) throw unauthorized(messages.twoFactor.challengeExpired);
  const attempt = await runSecondStep(deps.db, {
    ...claim,
    address: actor.address,
    lockWindowMs: lockoutMs,
    lockoutThreshold,
    codeFailureLimit: codeFailuresPerAccount,
  });
  if (!attempt || attempt.outcome === 'spent') throw unauthorized(messages.twoFactor.challengeExpired);
  if (attempt.outcome === 'refused') {
    const fromAllAddresses = await recordCodeFailure(deps.db, attempt.id, actor.address, lockoutMs);
    deps.metrics.business.secondFactorFailed('sign_in');
    if (attempt.failuresFromAddress + 1 === lockoutThreshold) deps.metrics.business.accountLocked();
    // Once per window, as the cap is reached: whoever is guessing has the password.
    if (fromAllAddresses === codeFailuresPerAccount) await mailCodeFailures(deps, actor, attempt);
    throw unauthorized(messages.twoFactor.codeInvalid);
  }
  if (attempt.failuresFromAddress > 0) await clearSignInFailures(deps.db, attempt.id, actor.address);
  // The answer comes from the row already read (role and organization from the identity cache).
  const [answer] = await userDtosAt(deps.db, [attempt], attempt.version);
  if (!answer) throw unauthorized(messages.twoFactor.challengeExpired);
  const twoFactor = { enabled: true, required: attempt.twoFactorRequired };
  const session = await signedIn(deps, actor, { ...answer, twoFactor }, input.deviceToken);
  deps.metrics.business.signIn('succeeded');
  return session;
}

/**
 * Remembers the browser (a long-lived random cookie, kept as a keyed hash) and mails the owner when
 * it is new to an account that has signed in elsewhere before; answers the cookie to set.
 */
async function noticeDevice(
  deps: Deps,
  actor: Visitor,
  user: SessionUser,
  sent: string | undefined,
): Promise<string> {
  const deviceToken = sent && DEVICE_TOKEN_PATTERN.test(sent) ? sent : randomToken();
  const deviceHash = hmacSha256(deps.secrets.twoFactor.deviceKey, deviceToken);
  await deps.db.transaction(async (tx) => {
    if ((await rememberDevice(tx, user.id, deviceHash)) !== 'new') return;
    await deps.mailer.enqueue(tx, newDeviceMail(deps, actor, user));
  });
  return deviceToken;
}

function newDeviceMail(deps: Deps, actor: Visitor, user: SessionUser) {
  return {
    kind: 'new_device' as const,
    to: user.email,
    organizationId: user.organizationId,
    subject: messages.twoFactor.newDeviceSubject,
    text: [
      'Your account was signed in to from a browser it had not been used from before.',
      '',
      `Time: ${formatDateTime(new Date())} (India Standard Time)`,
      `Device: ${deviceName(actor.userAgent)}`,
      `Address: ${actor.address}`,
      '',
      'If this was you, there is nothing to do. If it was not, end that session and change your password:',
      `${deps.env.publicOrigin}/dashboard/settings?section=sessions`,
    ].join('\n'),
  };
}

/**
 * Tells the owner that codes are refused for a while after many wrong ones, and that whoever typed
 * them knew the password. Written to the outbox and queued (two inserts); a job sends it.
 */
async function mailCodeFailures(deps: Deps, actor: Visitor, user: { email: string; organizationId: string }) {
  const { codeFailuresPerAccount, lockoutMs } = deps.config.limits;
  await deps.db.transaction(async (tx) => {
    await deps.mailer.enqueue(tx, {
      kind: 'code_failures',
      to: user.email,
      organizationId: user.organizationId,
      subject: messages.twoFactor.codeFailuresSubject,
      text: [
        `Your password was entered correctly, then ${codeFailuresPerAccount} wrong sign-in codes, the last at ${formatDateTime(new Date())} (India Standard Time) from ${actor.address}.`,
        `Sign-in codes for your account are refused for the next ${lockoutMs / 60_000} minutes.`,
        '',
        'If this was not you, someone knows your password. Set a new one now; that also lets you sign in again at once:',
        `${deps.env.publicOrigin}/auth/forgot-password`,
      ].join('\n'),
    });
  });
}

/** The signed-in user as the web app needs it: the user and their two-factor state. */
async function findSessionUser(deps: Deps, actor: Visitor, userId: string): Promise<SessionUser | null> {
  const [user, twoFactor] = await Promise.all([
    findUserDto(deps.db, userId),
    twoFactorState(deps, actor, { userId }),
  ]);
  return user && { ...user, twoFactor };
}

/**
 * Rotates the refresh token (sessions) and issues a new pair in the same family. A family opened
 * without the second factor ends once its account has one (the thief who had only the password,
 * when the owner enrols), as does one of a user no longer active.
 */
export async function refresh(
  deps: Deps,
  actor: Visitor,
  input: { refreshToken: string | undefined; csrfToken: unknown },
) {
  const session = await rotateSession(deps, actor, input);
  const user = await findSessionUser(deps, actor, session.userId);
  if (!user || !user.isActive || (user.twoFactor.enabled && !session.secondFactor)) {
    await endSessionFamily(deps, actor, { familyId: session.familyId });
    throw unauthorized(messages.login.sessionExpired);
  }
  const tokens = await issueSession(deps, actor, {
    userId: session.userId,
    familyId: session.familyId,
    secondFactor: session.secondFactor,
  });
  return { user, tokens };
}

export async function logout(deps: Deps, actor: Actor) {
  await endSessionFamily(deps, actor, { familyId: actor.familyId });
}

/** Who is signed in, with the two-factor state the access check established for this request. */
export async function me(deps: Deps, actor: Actor): Promise<SessionUser> {
  const user = await findUserDto(deps.db, actor.userId);
  if (!user) throw unauthorized();
  return { ...user, twoFactor: actor.twoFactor };
}
