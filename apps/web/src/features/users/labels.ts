/** Texts used only by Users (texts docs/product.md names are in packages/shared messages.ts). */
export const labels = {
  endSessions: 'End all sessions',
  endSessionsTitle: 'End all sessions?',
  endSessionsConfirm: (username: string) =>
    `${username} will be signed out in every browser and will have to sign in again.`,
  endSessionsFailed: 'The sessions could not be ended.',
} as const;
