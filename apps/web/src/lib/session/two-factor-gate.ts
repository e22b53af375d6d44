import type { SessionUser } from '@portal/shared';

/**
 * The standalone page where a user whose role requires two-factor sign-in sets it up. It stands
 * outside the app's shell: until then the server refuses the shell's calls.
 */
export const TWO_FACTOR_SETUP_PATH = '/auth/two-factor-setup';

/** The user's role requires two-factor sign-in and they have not set it up: every page leads to do so. */
export function mustSetUpTwoFactor(user: SessionUser | null): boolean {
  return user !== null && user.twoFactor.required && !user.twoFactor.enabled;
}
