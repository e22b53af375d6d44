import { z } from 'zod';
import { RECOVERY_CODE_PATTERN, TOTP_CODE_PATTERN } from '../constants.js';
import { messages } from '../messages.js';
import { userSchema } from './users.js';

/** A six-digit code from an authenticator app (spaces a user types between the groups are dropped). */
export const totpCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1, messages.twoFactor.codeRequired)
      .regex(TOTP_CODE_PATTERN, messages.twoFactor.codeFormat),
  );

/** A six-digit code from the authenticator app, or one of the account's recovery codes. */
export const codeOrRecoverySchema = z
  .string()
  .trim()
  .min(1, messages.twoFactor.codeRequired)
  .max(40)
  .refine(
    (code) => TOTP_CODE_PATTERN.test(code.replace(/\s+/g, '')) || RECOVERY_CODE_PATTERN.test(code),
    messages.twoFactor.codeOrRecoveryFormat,
  );

/** The second step of a sign-in: the challenge the password step answered, and a code or a recovery code. */
export const secondStepBodySchema = z.object({
  challenge: z.string().min(20).max(512),
  code: codeOrRecoverySchema,
});
export type SecondStepBody = z.infer<typeof secondStepBodySchema>;

/** The password step's answer for an account with two-factor sign-in on: no session yet. */
export const signInChallengeSchema = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
  expiresAt: z.string(),
});
export type SignInChallenge = z.infer<typeof signInChallengeSchema>;

/** Where the signed-in user stands with two-factor sign-in: `required` by their role, `enabled` by them. */
export const twoFactorStateSchema = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
});
export type TwoFactorState = z.infer<typeof twoFactorStateSchema>;

/** The signed-in user as sign-in, refresh and `me` answer: a user and their two-factor state. */
export const sessionUserSchema = userSchema.extend({ twoFactor: twoFactorStateSchema });
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** The password step answers a challenge for the second step, or the signed-in user. */
export const loginResultSchema = z.union([signInChallengeSchema, sessionUserSchema]);
export type LoginResult = z.infer<typeof loginResultSchema>;

export const twoFactorStatusSchema = twoFactorStateSchema.extend({
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** A new secret waiting for its first code: the text to type and the URI the QR code carries. */
export const twoFactorSetupSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

export const enableTwoFactorBodySchema = z.object({ code: totpCodeSchema });

/**
 * Turning two-factor sign-in off, making new recovery codes or setting up a new authenticator: the
 * password and a current code, or a recovery code when the authenticator is lost.
 */
export const confirmTwoFactorBodySchema = z.object({
  password: z.string().min(1, messages.password.currentRequired).max(200),
  code: codeOrRecoverySchema,
});
export type ConfirmTwoFactorBody = z.infer<typeof confirmTwoFactorBodySchema>;

/** Shown once, when made: only their hashes are kept. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** One signed-in browser: a session family, from its sign-in to its latest refresh. */
export const activeSessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  address: z.string().nullable(),
  signedInAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

export const endedSessionsSchema = z.object({ ended: z.number().int() });
