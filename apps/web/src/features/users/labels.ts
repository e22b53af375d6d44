/** Texts used only by Users (texts docs/product.md names are in packages/shared messages.ts). */
export const labels = {
  endSessions: 'End all sessions',
  endSessionsTitle: 'End all sessions?',
  endSessionsConfirm: (username: string) =>
    `${username} will be signed out in every browser and will have to sign in again.`,
  endSessionsFailed: 'The sessions could not be ended.',
  resetTwoFactor: 'Reset two-factor sign-in',
  resetTwoFactorTitle: 'Reset two-factor sign-in?',
  resetTwoFactorConfirm: (username: string) =>
    `Do this only when ${username} has lost both the authenticator and the recovery codes, and you know it is them asking. Their second factor is removed, they are signed out everywhere and mailed, and they set it up again at their next sign-in.`,
  resetTwoFactorFailed: 'The second factor could not be reset.',
  importUsers: 'Import users',
  importOrganizations: 'Import organizations',
} as const;
