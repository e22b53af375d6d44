import { RECOVERY_CODE_COUNT, SIGN_IN_CHALLENGE_MINUTES, TOTP_DIGITS } from '@portal/shared';

/**
 * Texts of sign-in's second step and two-factor setup, for the sign-in pages and Settings (texts
 * docs/product.md names are in messages.ts).
 */
export const labels = {
  secondStepSubtitle: `Enter the ${TOTP_DIGITS}-digit code your authenticator app shows, or one of your recovery codes, within ${SIGN_IN_CHALLENGE_MINUTES} minutes.`,
  authenticationCode: 'Authentication code',
  codeOrRecoveryCode: 'Authentication code or recovery code',
  recoveryCode: 'Recovery code',
  recoveryCodeHint:
    'Each recovery code works once. Lost your phone? Once signed in, set up a new authenticator in Settings → Two-factor sign-in.',
  verify: 'Verify',
  useRecoveryCode: 'Use a recovery code',
  useAuthenticator: 'Use your authenticator app',
  back: 'Back',
  setupIntro: `Two-factor sign-in asks for a ${TOTP_DIGITS}-digit code from an authenticator app on your phone (such as Google Authenticator, Microsoft Authenticator or 1Password) each time you sign in with your password.`,
  setUp: 'Set up',
  scanStep: '1. Scan this QR code with your authenticator app.',
  qrTitle: 'QR code for your authenticator app',
  keyStep: 'Cannot scan it? Enter this setup key in the app instead:',
  copyKey: 'Copy setup key',
  keyCopied: 'Setup key copied',
  codeStep: `2. Enter the ${TOTP_DIGITS}-digit code the app now shows.`,
  confirm: 'Confirm',
  cancel: 'Cancel',
  recoveryCodesTitle: 'Your recovery codes',
  recoveryCodesNote: `Each of these ${RECOVERY_CODE_COUNT} codes signs you in once if you lose your phone. Save them somewhere safe now: they will not be shown again.`,
  copyCodes: 'Copy',
  codesCopied: 'Recovery codes copied',
  downloadCodes: 'Download .txt',
  recoveryCodesFile: 'recovery-codes.txt',
  recoveryCodesFileHeading: 'Interview Credits Portal: two-factor sign-in recovery codes (each works once)',
  continue: 'Continue',
  signOut: 'Sign out',
} as const;
