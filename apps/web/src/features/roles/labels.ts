/** Texts used only by Roles (texts docs/product.md names are in packages/shared messages.ts). */
export const labels = {
  requireTwoFactor: 'Require two-factor sign-in',
  stopRequiringTwoFactor: 'Stop requiring two-factor sign-in',
  twoFactorRequired: '2FA required',
  twoFactorRequiredLong: 'Its users must sign in with two-factor sign-in.',
  /** The organization of a system role, which every organization has. */
  allOrganizations: 'All organizations',
  /** The super administrator's role, which only the platform's own organization has. */
  platformOnly: 'Platform',
} as const;
