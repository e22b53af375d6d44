import type { FastifyInstance } from 'fastify';
import {
  formatDateTime,
  meets,
  messages,
  REQUIREMENTS,
  TOTP_CODE_PATTERN,
  type ConfirmTwoFactorBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@portal/shared';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
  unauthorized,
} from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import { recordActivity, recordOwnAccountChange } from '../../core/activity-log.repo.js';
import { findAccountEmail, findUserIdByEmail } from '../auth/accounts.repo.js';
import { markFamilySecondFactor, revokeUserSessions } from '../auth/sessions.repo.js';
import { assertManageable } from '../users/users.service.js';
import { findUserRecord } from '../users/users.repo.js';
import { findPasswordHash } from '../password/password.repo.js';
import { countHit } from '../../core/rate-limits.repo.js';
import {
  claimStep,
  confirmTotp,
  countRecoveryCodesLeft,
  deleteTwoFactor,
  findTotp,
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
export function stepOfCode(app: FastifyInstance, secretCiphertext: string, code: string): number {
  const secret = decryptSecret(app.secrets.twoFactor.secretKey, secretCiphertext);
  return (secret === null ? null : matchingStep(secret, code, Date.now())) ?? -1;
}

/**
 * Whether `code` is the secret's code of a step near now that was not used before; accepting it
 * uses its step, so the same code never works twice. Always one statement, whatever the outcome.
 */
async function acceptCode(
  app: FastifyInstance,
  totp: Pick<TotpRow, 'userId' | 'secretCiphertext'>,
  code: string,
) {
  return claimStep(app.db, totp.userId, stepOfCode(app, totp.secretCiphertext, code));
}

export async function twoFactorStatus(app: FastifyInstance, auth: Actor): Promise<TwoFactorStatus> {
  const totp = await findTotp(app.db, auth.userId);
  const enabled = Boolean(totp?.confirmedAt);
  return {
    enabled,
    required: auth.twoFactor.required,
    enabledAt: enabled ? totp!.confirmedAt!.toISOString() : null,
    recoveryCodesLeft: enabled ? await countRecoveryCodesLeft(app.db, auth.userId) : 0,
  };
}

/** A new secret waiting for its first code (replacing one still waiting). */
export async function startSetup(app: FastifyInstance, auth: Actor): Promise<TwoFactorSetup> {
  const secret = newTotpSecret();
  const saved = await savePendingSecret(
    app.db,
    auth.userId,
    encryptSecret(app.secrets.twoFactor.secretKey, secret),
  );
  if (!saved) throw conflict(messages.twoFactor.alreadyEnabled);
  const email = await findAccountEmail(app.db, auth.userId);
  return { secret, otpauthUri: otpauthUri(secret, email ?? auth.userId) };
}

async function countChangeAttempt(app: FastifyInstance, auth: Actor) {
  const hits = await countHit(app.db, `two-factor-change:user:${auth.userId}`, TWO_FACTOR_CHANGE_WINDOW_MS);
  if (hits > TWO_FACTOR_CHANGE_LIMIT) throw tooManyRequests(messages.twoFactor.tooManyAttempts);
}

async function issueRecoveryCodes(app: FastifyInstance, db: FastifyInstance['db'], userId: string) {
  const codes = newRecoveryCodes();
  const key = app.secrets.twoFactor.recoveryKey;
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
export async function enableTwoFactor(app: FastifyInstance, auth: Actor, code: string) {
  await countChangeAttempt(app, auth);
  const totp = await findTotp(app.db, auth.userId);
  if (!totp) throw conflict(messages.twoFactor.noPendingSetup);
  if (totp.confirmedAt) throw conflict(messages.twoFactor.alreadyEnabled);
  if (!(await acceptCode(app, totp, code))) throw badRequest(messages.twoFactor.codeInvalid);
  return app.db.transaction(async (tx) => {
    await confirmTotp(tx, auth.userId);
    await markFamilySecondFactor(tx, auth.familyId);
    await revokeUserSessions(tx, auth.userId, auth.familyId);
    const recoveryCodes = await issueRecoveryCodes(app, tx, auth.userId);
    await recordOwnAccountChange(tx, auth, 'Turned on two-factor sign-in');
    return recoveryCodes;
  });
}

/**
 * Turning it off, making new recovery codes or replacing the authenticator: the password, then a
 * current code or an unused recovery code (which this spends), so a lost authenticator is not a
 * locked account.
 */
async function confirmWithPasswordAndCode(app: FastifyInstance, auth: Actor, body: ConfirmTwoFactorBody) {
  await countChangeAttempt(app, auth);
  const totp = await findTotp(app.db, auth.userId);
  if (!totp?.confirmedAt) throw conflict(messages.twoFactor.notEnabled);
  const account = await findPasswordHash(app.db, auth.userId);
  if (!account) throw unauthorized();
  if (!(await app.hasher.verify(account.passwordHash, body.password))) {
    throw badRequest(messages.password.currentIncorrect);
  }
  const typed = body.code.replace(/\s+/g, '');
  const accepted = TOTP_CODE_PATTERN.test(typed)
    ? await acceptCode(app, totp, typed)
    : await spendRecoveryCode(
        app.db,
        auth.userId,
        recoveryCodeHash(app.secrets.twoFactor.recoveryKey, body.code),
      );
  if (!accepted) throw badRequest(messages.twoFactor.codeInvalid);
}

/** Turning the factor off ends the user's other sessions, as turning it on does. */
export async function disableTwoFactor(app: FastifyInstance, auth: Actor, body: ConfirmTwoFactorBody) {
  await confirmWithPasswordAndCode(app, auth, body);
  await app.db.transaction(async (tx) => {
    await deleteTwoFactor(tx, auth.userId);
    await revokeUserSessions(tx, auth.userId, auth.familyId);
    await recordOwnAccountChange(tx, auth, 'Turned off two-factor sign-in');
  });
}

/**
 * A new authenticator for a lost or replaced one: proved like turning it off, then the old factor
 * and its recovery codes are gone and a new secret waits for its first code (`enableTwoFactor`),
 * in one transaction. Other sessions end.
 */
export async function replaceAuthenticator(
  app: FastifyInstance,
  auth: Actor,
  body: ConfirmTwoFactorBody,
): Promise<TwoFactorSetup> {
  await confirmWithPasswordAndCode(app, auth, body);
  const secret = newTotpSecret();
  await app.db.transaction(async (tx) => {
    await deleteTwoFactor(tx, auth.userId);
    await savePendingSecret(tx, auth.userId, encryptSecret(app.secrets.twoFactor.secretKey, secret));
    await revokeUserSessions(tx, auth.userId, auth.familyId);
    await recordOwnAccountChange(tx, auth, 'Started setting up a new authenticator');
  });
  const email = await findAccountEmail(app.db, auth.userId);
  return { secret, otpauthUri: otpauthUri(secret, email ?? auth.userId) };
}

function factorResetMail(app: FastifyInstance, to: string, by: string) {
  return {
    to,
    subject: messages.twoFactor.resetSubject,
    text: [
      `Your two-factor sign-in was reset by ${by} at ${formatDateTime(new Date())} (India Standard Time).`,
      'Every session of your account was ended. At your next sign-in you set up an authenticator again',
      'if your role requires one, or from Settings → Two-factor sign-in.',
      '',
      'If you did not ask for this, tell your administrator and set a new password:',
      `${app.env.publicOrigin}/auth/forgot-password`,
    ].join('\n'),
  };
}

/**
 * Removes another user's second factor (they lost their authenticator and their recovery codes):
 * the platform operator's act, never on themselves, never on someone with a wider role. Every session
 * of the user ends, the reset is recorded in the activity log and the user is mailed. `actor` null is
 * the operator's command line (`npm run reset-two-factor`), for the last super administrator.
 */
export async function resetUserTwoFactor(
  app: FastifyInstance,
  actor: Actor | null,
  userId: string,
): Promise<void> {
  if (actor) {
    if (!meets(actor, REQUIREMENTS.resetUserTwoFactor)) throw forbidden();
    if (actor.userId === userId) throw forbidden(messages.twoFactor.cannotResetOwn);
  }
  const outboxId = await app.db.transaction(async (tx) => {
    const user = (await findUserRecord(tx, userId))?.user;
    if (!user) throw notFound(messages.users.notFound);
    if (actor) await assertManageable(tx, actor, user.roleId);
    const totp = await findTotp(tx, user.id);
    if (!totp?.confirmedAt) throw conflict(messages.twoFactor.notEnabled);
    await deleteTwoFactor(tx, user.id);
    await revokeUserSessions(tx, user.id);
    await recordActivity(tx, {
      organizationId: user.organizationId,
      actorUserId: actor?.userId ?? null,
      action: 'updated',
      entityType: 'user',
      entityId: user.id,
      message: `Reset the two-factor sign-in of ${user.username}${actor ? '' : ' (operator command)'}`,
    });
    return app.mailer.enqueue(
      tx,
      factorResetMail(app, user.email, actor ? 'an administrator' : 'the operator'),
    );
  });
  await app.mailer.deliver(app.db, outboxId);
}

export async function regenerateRecoveryCodes(
  app: FastifyInstance,
  auth: Actor,
  body: ConfirmTwoFactorBody,
): Promise<string[]> {
  await confirmWithPasswordAndCode(app, auth, body);
  return app.db.transaction((tx) => issueRecoveryCodes(app, tx, auth.userId));
}

/** The operator's command (`npm run reset-two-factor -- EMAIL`): `resetUserTwoFactor` by email. */
export async function resetTwoFactorByEmail(app: FastifyInstance, email: string): Promise<string> {
  const userId = await findUserIdByEmail(app.db, email);
  if (!userId) throw notFound(`No account has the email ${email}`);
  await resetUserTwoFactor(app, null, userId);
  return `Two-factor sign-in of ${email} was reset: every session ended and the user was mailed. They sign in with their password and set up an authenticator again.`;
}
