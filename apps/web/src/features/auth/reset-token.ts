/**
 * A reset or invitation link's token, once it has left the address bar (issue 20): kept in this
 * tab's session storage, so a reload of the reset page still works while the token is good, and
 * dropped once it is used or found dead. Session storage is this tab's alone and ends with it.
 */
export const RESET_TOKEN_KEY = 'resetPasswordToken';

/** The link's token when it has one (kept for a reload), else the one kept from earlier in this tab. */
export function takeResetToken(fromLink: string | null): string {
  try {
    if (fromLink) {
      sessionStorage.setItem(RESET_TOKEN_KEY, fromLink);
      return fromLink;
    }
    return sessionStorage.getItem(RESET_TOKEN_KEY) ?? '';
  } catch {
    // Storage refused (a privacy mode): the token still works until the page is left.
    return fromLink ?? '';
  }
}

export function forgetResetToken() {
  try {
    sessionStorage.removeItem(RESET_TOKEN_KEY);
  } catch {
    // Nothing was kept.
  }
}
