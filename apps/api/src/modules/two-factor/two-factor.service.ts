import type { FastifyInstance } from 'fastify';
import {
  messages,
  type ConfirmTwoFactorBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@portal/shared';
import { badRequest, conflict, tooManyRequests, unauthorized } from '../../lib/errors.js';
import type { AuthContext } from '../../plugins/access.js';
import { recordOwnAccountChange } from '../activity/activity.repo.js';
import { findAccountEmail } from '../auth/accounts.repo.js';
import { findPasswordHash } from '../password/password.repo.js';
import { countHit } from '../platform/rate-limit.repo.js';
import {
  claimStep,
  confirmTotp,
  countRecoveryCodesLeft,
  deleteTwoFactor,
  findTotp,
  replaceRecoveryCodes,
  savePendingSecret,
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

export async function twoFactorStatus(app: FastifyInstance, auth: AuthContext): Promise<TwoFactorStatus> {
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
export async function startSetup(app: FastifyInstance, auth: AuthContext): Promise<TwoFactorSetup> {
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

async function countChangeAttempt(app: FastifyInstance, auth: AuthContext) {
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

/** Confirms the waiting secret with its first code: two-factor sign-in is on, and recovery codes made. */
export async function enableTwoFactor(app: FastifyInstance, auth: AuthContext, code: string) {
  await countChangeAttempt(app, auth);
  const totp = await findTotp(app.db, auth.userId);
  if (!totp) throw conflict(messages.twoFactor.noPendingSetup);
  if (totp.confirmedAt) throw conflict(messages.twoFactor.alreadyEnabled);
  if (!(await acceptCode(app, totp, code))) throw badRequest(messages.twoFactor.codeInvalid);
  return app.db.transaction(async (tx) => {
    await confirmTotp(tx, auth.userId);
    const recoveryCodes = await issueRecoveryCodes(app, tx, auth.userId);
    await recordOwnAccountChange(tx, auth, 'Turned on two-factor sign-in');
    return recoveryCodes;
  });
}

/** Turning it off or making new recovery codes: the password, then a current code. */
async function confirmWithPasswordAndCode(
  app: FastifyInstance,
  auth: AuthContext,
  body: ConfirmTwoFactorBody,
) {
  await countChangeAttempt(app, auth);
  const totp = await findTotp(app.db, auth.userId);
  if (!totp?.confirmedAt) throw conflict(messages.twoFactor.notEnabled);
  const account = await findPasswordHash(app.db, auth.userId);
  if (!account) throw unauthorized();
  if (!(await app.hasher.verify(account.passwordHash, body.password))) {
    throw badRequest(messages.password.currentIncorrect);
  }
  if (!(await acceptCode(app, totp, body.code))) throw badRequest(messages.twoFactor.codeInvalid);
}

export async function disableTwoFactor(app: FastifyInstance, auth: AuthContext, body: ConfirmTwoFactorBody) {
  await confirmWithPasswordAndCode(app, auth, body);
  await app.db.transaction(async (tx) => {
    await deleteTwoFactor(tx, auth.userId);
    await recordOwnAccountChange(tx, auth, 'Turned off two-factor sign-in');
  });
}

export async function regenerateRecoveryCodes(
  app: FastifyInstance,
  auth: AuthContext,
  body: ConfirmTwoFactorBody,
): Promise<string[]> {
  await confirmWithPasswordAndCode(app, auth, body);
  return app.db.transaction((tx) => issueRecoveryCodes(app, tx, auth.userId));
}
