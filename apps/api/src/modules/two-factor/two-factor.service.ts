import {
  formatDateTime,
  meets,
  messages,
  REQUIREMENTS,
  TOTP_CODE_PATTERN,
  type ConfirmTwoFactorBody,
  type SignInChallenge,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
  unauthorized,
} from '../../lib/errors.js';
import type { Actor, AnyActor, SystemActor, Visitor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { recordActivity, recordOwnAccountChange } from '../../core/activity-log.repo.js';
import { countHit } from '../../core/rate-limits.repo.js';
import { endOtherSessions, markSecondFactor, revokeAllSessions } from '../sessions/index.js';
import { openChallenge, sealChallenge, type ChallengeClaims } from './challenge.js';
import {
  claimStep,
  confirmTotp,
  countRecoveryCodesLeft,
  deleteTwoFactor,
  findAccount,
  findTotp,
  findTwoFactorState,
  replaceRecoveryCodes,
  savePendingSecret,
  spendRecoveryCode,
  type TotpRow,
} from './two-factor.repo.js';
import {
  decryptSecret,
  encryptSecret,
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  recoveryCodeHash,
} from './totp.js';

/**
 * Tries per user and window at the routes that check a code for a signed-in user (enable, disable,
 * new recovery codes): a stolen session must not be able to guess a code or the password here.
 */
export const TWO_FACTOR_CHANGE_LIMIT = 20;
export const TWO_FACTOR_CHANGE_WINDOW_MS = 15 * 60_000;

/** The time step near now whose code `code` is, for a stored secret; -1 when none (or unreadable). */
function stepOfCode(deps: Deps, secretCiphertext: string, code: string): number {
  const secret = decryptSecret(deps.secrets.twoFactor.secretKey, secretCiphertext);
  return (secret === null ? null : matchingStep(secret, code, Date.now())) ?? -1;
}

/**
 * Whether `code` is the secret's code of a step near now that was not used before; accepting it
 * uses its step, so the same code never works twice. Always one statement, whatever the outcome.
 */
async function acceptCode(deps: Deps, totp: Pick<TotpRow, 'userId' | 'secretCiphertext'>, code: string) {
  return claimStep(deps.db, totp.userId, stepOfCode(deps, totp.secretCiphertext, code));
}

/**
 * The password step's answer for an account with a second factor: a challenge sealing the account
 * and its secret as stored, for the second step (`readSecondStep`).
 */
export function signInChallenge(
  deps: Deps,
  _actor: Visitor,
  input: { userId: string; secretCiphertext: string },
): SignInChallenge {
  const { token, expiresAt } = sealChallenge(deps.secrets.twoFactor.challengeKey, {
    ...input,
    issuedAt: new Date(),
  });
  return { twoFactorRequired: true, challenge: token, expiresAt: expiresAt.toISOString() };
}

/** What the second step's one statement claims: the challenge's claims and the code's time step or recovery hash. */
export interface SecondStepClaim extends ChallengeClaims {
  code: { step: number } | { recoveryHash: string };
}

/**
 * The second step's challenge and code, read: null when the challenge is not one this portal sealed
 * or is no longer live. A code that matches no step near now is step -1, which claims nothing
 * through the same statement as a right one.
 */
export function readSecondStep(
  deps: Deps,
  _actor: Visitor,
  input: { challenge: string; code: string },
): SecondStepClaim | null {
  const challenge = openChallenge(deps.secrets.twoFactor.challengeKey, input.challenge, Date.now());
  if (!challenge) return null;
  const typed = input.code.replace(/\s+/g, '');
  return {
    ...challenge,
    code: TOTP_CODE_PATTERN.test(typed)
      ? { step: stepOfCode(deps, challenge.secretCiphertext, typed) }
      : { recoveryHash: recoveryCodeHash(deps.secrets.twoFactor.recoveryKey, input.code) },
  };
}

/** Whether a user's role requires a second factor, and whether they have one (sign-in's answer). */
export async function twoFactorState(deps: Deps, _actor: AnyActor, input: { userId: string }) {
  return findTwoFactorState(deps.db, input.userId);
}

export async function twoFactorStatus(deps: Deps, actor: Actor): Promise<TwoFactorStatus> {
  const totp = await findTotp(deps.db, actor.userId);
  const enabled = Boolean(totp?.confirmedAt);
  return {
    enabled,
    required: actor.twoFactor.required,
    enabledAt: enabled ? totp!.confirmedAt!.toISOString() : null,
    recoveryCodesLeft: enabled ? await countRecoveryCodesLeft(deps.db, actor.userId) : 0,
  };
}

/** What the authenticator app shows for a new secret: the account's email. */
async function setupOf(deps: Deps, actor: Actor, secret: string): Promise<TwoFactorSetup> {
  const email = (await findAccount(deps.db, { userId: actor.userId }))?.email;
  return { secret, otpauthUri: otpauthUri(secret, email ?? actor.userId) };
}

/** A new secret waiting for its first code (replacing one still waiting). */
export async function startSetup(deps: Deps, actor: Actor): Promise<TwoFactorSetup> {
  const secret = newTotpSecret();
  const saved = await savePendingSecret(
    deps.db,
    actor.userId,
    encryptSecret(deps.secrets.twoFactor.secretKey, secret),
  );
  if (!saved) throw conflict(messages.twoFactor.alreadyEnabled);
  return setupOf(deps, actor, secret);
}

async function countChangeAttempt(deps: Deps, actor: Actor) {
  const hits = await countHit(deps.db, `two-factor-change:user:${actor.userId}`, TWO_FACTOR_CHANGE_WINDOW_MS);
  if (hits > TWO_FACTOR_CHANGE_LIMIT) throw tooManyRequests(messages.twoFactor.tooManyAttempts);
}

async function issueRecoveryCodes(deps: Deps, db: Db, userId: string) {
  const codes = newRecoveryCodes();
  const key = deps.secrets.twoFactor.recoveryKey;
  await replaceRecoveryCodes(
    db,
    userId,
    codes.map((code) => recoveryCodeHash(key, code)),
  );
  return codes;
}

/**
 * Confirms the waiting secret with its first code: two-factor sign-in is on, and recovery codes made.
 * This session typed a code, so it counts as signed in with the factor; every other session of the
 * user ends (one opened with a stolen password must not outlive the owner's enrolment).
 */
export async function enableTwoFactor(deps: Deps, actor: Actor, input: { code: string }) {
  await countChangeAttempt(deps, actor);
  const totp = await findTotp(deps.db, actor.userId);
  if (!totp) throw conflict(messages.twoFactor.noPendingSetup);
  if (totp.confirmedAt) throw conflict(messages.twoFactor.alreadyEnabled);
  if (!(await acceptCode(deps, totp, input.code))) {
    deps.metrics.business.secondFactorFailed('settings');
    throw badRequest(messages.twoFactor.codeInvalid);
  }
  return deps.db.transaction(async (tx) => {
    await confirmTotp(tx, actor.userId);
    await markSecondFactor(withDb(deps, tx), actor);
    await endOtherSessions(withDb(deps, tx), actor);
    const recoveryCodes = await issueRecoveryCodes(deps, tx, actor.userId);
    await recordOwnAccountChange(tx, actor, 'Turned on two-factor sign-in');
    return recoveryCodes;
  });
}

/**
 * Turning it off, making new recovery codes or replacing the authenticator: the password, then a
 * current code or an unused recovery code (which this spends), so a lost authenticator is not a
 * locked account.
 */
async function confirmWithPasswordAndCode(deps: Deps, actor: Actor, body: ConfirmTwoFactorBody) {
  await countChangeAttempt(deps, actor);
  const totp = await findTotp(deps.db, actor.userId);
  if (!totp?.confirmedAt) throw conflict(messages.twoFactor.notEnabled);
  const account = await findAccount(deps.db, { userId: actor.userId });
  if (!account) throw unauthorized();
  if (!(await deps.hasher.verify(account.passwordHash, body.password))) {
    throw badRequest(messages.password.currentIncorrect);
  }
  const typed = body.code.replace(/\s+/g, '');
  const accepted = TOTP_CODE_PATTERN.test(typed)
    ? await acceptCode(deps, totp, typed)
    : await spendRecoveryCode(
        deps.db,
        actor.userId,
        recoveryCodeHash(deps.secrets.twoFactor.recoveryKey, body.code),
      );
  if (!accepted) {
    deps.metrics.business.secondFactorFailed('settings');
    throw badRequest(messages.twoFactor.codeInvalid);
  }
}

/** Turning the factor off ends the user's other sessions, as turning it on does. */
export async function disableTwoFactor(deps: Deps, actor: Actor, body: ConfirmTwoFactorBody) {
  await confirmWithPasswordAndCode(deps, actor, body);
  await deps.db.transaction(async (tx) => {
    await deleteTwoFactor(tx, actor.userId);
    await endOtherSessions(withDb(deps, tx), actor);
    await recordOwnAccountChange(tx, actor, 'Turned off two-factor sign-in');
  });
}

/**
 * A new authenticator for a lost or replaced one: proved like turning it off, then the old factor
 * and its recovery codes are gone and a new secret waits for its first code (`enableTwoFactor`),
 * in one transaction. Other sessions end.
 */
export async function replaceAuthenticator(
  deps: Deps,
  actor: Actor,
  body: ConfirmTwoFactorBody,
): Promise<TwoFactorSetup> {
  await confirmWithPasswordAndCode(deps, actor, body);
  const secret = newTotpSecret();
  await deps.db.transaction(async (tx) => {
    await deleteTwoFactor(tx, actor.userId);
    await savePendingSecret(tx, actor.userId, encryptSecret(deps.secrets.twoFactor.secretKey, secret));
    await endOtherSessions(withDb(deps, tx), actor);
    await recordOwnAccountChange(tx, actor, 'Started setting up a new authenticator');
  });
  return setupOf(deps, actor, secret);
}

export async function regenerateRecoveryCodes(
  deps: Deps,
  actor: Actor,
  body: ConfirmTwoFactorBody,
): Promise<string[]> {
  await confirmWithPasswordAndCode(deps, actor, body);
  return deps.db.transaction((tx) => issueRecoveryCodes(deps, tx, actor.userId));
}

function factorResetMail(deps: Deps, to: string, by: string) {
  return {
    kind: 'two_factor_reset' as const,
    to,
    subject: messages.twoFactor.resetSubject,
    text: [
      `Your two-factor sign-in was reset by ${by} at ${formatDateTime(new Date())} (India Standard Time).`,
      'Every session of your account was ended. At your next sign-in you set up an authenticator again',
      'if your role requires one, or from Settings → Two-factor sign-in.',
      '',
      'If you did not ask for this, tell your administrator and set a new password:',
      `${deps.env.publicOrigin}/auth/forgot-password`,
    ].join('\n'),
  };
}

/**
 * Removes another user's second factor (they lost their authenticator and their recovery codes):
 * the platform operator's act, never on themselves; whether they may manage that user is the
 * caller's check (users), made before this. Every session of the user ends, the reset is recorded in
 * the activity log and the user is mailed. The system actor is the operator's command line
 * (`npm run reset-two-factor -- EMAIL`, for the last super administrator), which names the user by email.
 */
export async function resetSecondFactor(
  deps: Deps,
  actor: Actor | SystemActor,
  input: { userId: string } | { email: string },
): Promise<void> {
  const operator = actor.kind === 'system';
  if (!operator) {
    if (!meets(actor, REQUIREMENTS.resetUserTwoFactor)) throw forbidden();
    if ('userId' in input && actor.userId === input.userId)
      throw forbidden(messages.twoFactor.cannotResetOwn);
  }
  await deps.db.transaction(async (tx) => {
    const user = await findAccount(tx, input);
    if (!user) {
      throw notFound('email' in input ? `No account has the email ${input.email}` : messages.users.notFound);
    }
    if (!operator && actor.userId === user.id) throw forbidden(messages.twoFactor.cannotResetOwn);
    const totp = await findTotp(tx, user.id);
    if (!totp?.confirmedAt) throw conflict(messages.twoFactor.notEnabled);
    await deleteTwoFactor(tx, user.id);
    await revokeAllSessions(withDb(deps, tx), actor, { userId: user.id });
    await recordActivity(tx, {
      organizationId: user.organizationId,
      actorUserId: operator ? null : actor.userId,
      action: 'updated',
      entityType: 'user',
      entityId: user.id,
      message: `Reset the two-factor sign-in of ${user.username}${operator ? ' (operator command)' : ''}`,
    });
    await deps.mailer.enqueue(tx, {
      ...factorResetMail(deps, user.email, operator ? 'the operator' : 'an administrator'),
      organizationId: user.organizationId,
    });
  });
}
