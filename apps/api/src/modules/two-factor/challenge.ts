import { z } from 'zod';
import { SIGN_IN_CHALLENGE_MINUTES } from '@portal/shared';
import { decryptSecret, encryptSecret } from './totp.js';

/**
 * What the password step vouches for until the code comes: the account, when, and the authenticator
 * secret as stored (its ciphertext), so the second step checks the code before its one statement.
 * Sealed (AES-256-GCM under a key of its own), not stored: the password step writes nothing. It is
 * spent by the statement that accepts its code (user_totp.spent_challenges_until), with every
 * challenge of the account issued before it (docs/decisions/021).
 */
export interface ChallengeClaims {
  userId: string;
  issuedAt: Date;
  secretCiphertext: string;
}

const sealedClaims = z.object({ u: z.uuid(), i: z.number().int(), s: z.string().min(1) });

const LIFETIME_MS = SIGN_IN_CHALLENGE_MINUTES * 60_000;
/** A challenge from a moment ahead of this process's clock: another process's clock may run ahead. */
const CLOCK_SKEW_MS = 60_000;

export function sealChallenge(key: Buffer, claims: ChallengeClaims): { token: string; expiresAt: Date } {
  const issued = claims.issuedAt.getTime();
  const token = encryptSecret(
    key,
    JSON.stringify({ u: claims.userId, i: issued, s: claims.secretCiphertext }),
  );
  return { token, expiresAt: new Date(issued + LIFETIME_MS) };
}

/** The claims of a challenge this portal sealed and that is still live at `nowMs`, or null. */
export function openChallenge(key: Buffer, token: string, nowMs: number): ChallengeClaims | null {
  const text = decryptSecret(key, token);
  if (text === null) return null;
  let parsed: ReturnType<typeof sealedClaims.safeParse>;
  try {
    parsed = sealedClaims.safeParse(JSON.parse(text));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  const { u, i, s } = parsed.data;
  if (nowMs >= i + LIFETIME_MS || i > nowMs + CLOCK_SKEW_MS) return null;
  return { userId: u, issuedAt: new Date(i), secretCiphertext: s };
}
