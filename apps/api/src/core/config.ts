/** Limits and lifetimes a test may shorten; production uses `defaultConfig`. */
export interface AppConfig {
  /** `rotatedGraceMs`: how long a just-rotated refresh token still yields a session (at most 30 s). */
  sessionTtl: { accessMs: number; refreshMs: number; rotatedGraceMs: number };
  limits: {
    loginPerAddress: number;
    forgotPerAddress: number;
    resetPerAddress: number;
    windowMs: number;
    lockoutThreshold: number;
    lockoutMs: number;
    /** Wrong second-step codes to one account from all addresses together, per `lockoutMs`. */
    codeFailuresPerAccount: number;
  };
}

export const defaultConfig: AppConfig = {
  sessionTtl: { accessMs: 15 * 60_000, refreshMs: 7 * 24 * 3_600_000, rotatedGraceMs: 30_000 },
  limits: {
    loginPerAddress: 50,
    forgotPerAddress: 10,
    resetPerAddress: 20,
    windowMs: 15 * 60_000,
    lockoutThreshold: 5,
    lockoutMs: 15 * 60_000,
    // 10 guesses per 15 minutes at 3 in 10^6 each: about a year of guessing to sign in once.
    codeFailuresPerAccount: 10,
  },
};
