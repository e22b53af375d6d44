import { createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS, TOTP_WINDOW_STEPS } from '@portal/shared';
import { hmacSha256 } from '../../lib/tokens.js';

/** The name authenticator apps show beside the account. */
export const TOTP_ISSUER = 'Interview Credits Portal';

const CIPHER = 'aes-256-gcm';
const VERSION = 'v1';

/**
 * AES-256-GCM of a text (an authenticator secret, a sign-in challenge), `v1.{iv}.{tag}.{ciphertext}`
 * in base64url: a changed byte fails to decrypt.
 */
export function encryptSecret(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(CIPHER, key, iv);
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The text, or null when it cannot be read (another SESSION_SECRET, another key, or altered). */
export function decryptSecret(key: Buffer, stored: string): string | null {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== VERSION || !iv || !tag || !ciphertext) return null;
  try {
    const decipher = createDecipheriv(CIPHER, key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

function totpOf(base32: string, label = ''): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

/** 160 random bits, the size RFC 4226 recommends, in base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUri(base32: string, account: string): string {
  return totpOf(base32, account).toString();
}

/** The time step a code belongs to, within one step either side of `nowMs`, or null. */
export function matchingStep(base32: string, code: string, nowMs: number): number | null {
  const delta = totpOf(base32).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW_STEPS });
  return delta === null ? null : Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** Letters and digits that cannot be misread for one another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes like `k7m2q-9xw4c`: 50 bits each, from the system's random source. */
export function newRecoveryCodes(): string[] {
  const group = () => Array.from({ length: 5 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${group().join('')}-${group().join('')}`);
}

/** The stored form of a recovery code, however it was typed (case, the dash). */
export function recoveryCodeHash(key: string, code: string): string {
  return hmacSha256(key, code.trim().toLowerCase().replace('-', ''));
}
