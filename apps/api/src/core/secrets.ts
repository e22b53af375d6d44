import { hkdfSync } from 'node:crypto';

/** SESSION_SECRET, and the keys derived from it for each of their uses. */
export interface Secrets {
  session: string;
  twoFactor: TwoFactorKeys;
}

export function deriveSecrets(sessionSecret: string): Secrets {
  return { session: sessionSecret, twoFactor: deriveTwoFactorKeys(sessionSecret) };
}

/**
 * Keys for what two-factor sign-in keeps, each derived from SESSION_SECRET for its one use (HKDF):
 * the secrets' encryption, the sign-in challenges' sealing, the recovery codes' and the browsers'
 * keyed hashes.
 */
export interface TwoFactorKeys {
  secretKey: Buffer;
  challengeKey: Buffer;
  recoveryKey: string;
  deviceKey: string;
}

export function deriveTwoFactorKeys(sessionSecret: string): TwoFactorKeys {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', sessionSecret, '', info, 32));
  return {
    secretKey: derive('portal totp secret v1'),
    challengeKey: derive('portal sign-in challenge v1'),
    recoveryKey: derive('portal recovery code v1').toString('hex'),
    deviceKey: derive('portal known device v1').toString('hex'),
  };
}
