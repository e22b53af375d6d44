import { describe, expect, it } from 'vitest';
import { SIGN_IN_CHALLENGE_MINUTES } from '@portal/shared';
import { openChallenge, sealChallenge } from './challenge.js';
import { withFlippedBit } from '../../../test/harness.js';
import { encryptSecret } from './totp.js';
import { deriveTwoFactorKeys } from '../../core/secrets.js';

const keys = deriveTwoFactorKeys('challenge-secret-challenge-secret-1234');
const claims = {
  userId: '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
  issuedAt: new Date('2026-11-25T10:00:00.000Z'),
  secretCiphertext: 'v1.iv.tag.ciphertext',
};
const issued = claims.issuedAt.getTime();
const lifetime = SIGN_IN_CHALLENGE_MINUTES * 60_000;

describe('sign-in challenges', () => {
  it('open to their claims until they expire', () => {
    const { token, expiresAt } = sealChallenge(keys.challengeKey, claims);
    expect(expiresAt.getTime()).toBe(issued + lifetime);
    expect(openChallenge(keys.challengeKey, token, issued)).toEqual(claims);
    expect(openChallenge(keys.challengeKey, token, issued + lifetime - 1)).toEqual(claims);
    expect(openChallenge(keys.challengeKey, token, issued + lifetime)).toBeNull();
  });

  it('are opaque: the token shows neither the account nor the stored secret', () => {
    const { token } = sealChallenge(keys.challengeKey, claims);
    expect(token).not.toContain(claims.userId);
    expect(Buffer.from(token.replaceAll('.', ''), 'base64url').toString('latin1')).not.toContain(
      claims.secretCiphertext,
    );
  });

  it('refuse a changed byte, another key and another SESSION_SECRET', () => {
    const { token } = sealChallenge(keys.challengeKey, claims);
    expect(openChallenge(keys.challengeKey, withFlippedBit(token), issued)).toBeNull();
    expect(openChallenge(keys.secretKey, token, issued)).toBeNull();
    const other = deriveTwoFactorKeys('another-secret-another-secret-12345678');
    expect(openChallenge(other.challengeKey, token, issued)).toBeNull();
  });

  it('refuse sealed text that is not a challenge, and one from further ahead than clock skew', () => {
    expect(openChallenge(keys.challengeKey, encryptSecret(keys.challengeKey, 'not json'), issued)).toBeNull();
    const wrongShape = JSON.stringify({ u: 'not-a-uuid', i: issued, s: 'x' });
    expect(openChallenge(keys.challengeKey, encryptSecret(keys.challengeKey, wrongShape), issued)).toBeNull();
    const { token } = sealChallenge(keys.challengeKey, claims);
    expect(openChallenge(keys.challengeKey, token, issued - 59_000)).toEqual(claims);
    expect(openChallenge(keys.challengeKey, token, issued - 61_000)).toBeNull();
  });
});
