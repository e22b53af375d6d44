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
  /** Requests are refused (503) while the event loop lags more than this on average; 0: never (plugins/overload.ts). */
  overload: { maxEventLoopDelayMs: number };
  /** Background work (core/jobs.ts, docs/decisions/026). */
  jobs: {
    /** This process takes jobs; off in a process that only serves requests. */
    work: boolean;
    /** This process queues scheduled jobs (each slot once across every process that does). */
    schedule: boolean;
    /** This process takes part in pg-boss's maintenance: expiring lost tries, archiving, deleting. */
    supervise: boolean;
    pollingIntervalSeconds: number;
    maintenanceIntervalSeconds: number;
    /** How long shutdown lets running jobs finish before handing them back to the queue. */
    shutdownMs: number;
    /** Finished jobs and scheduled runs are deleted after this many days. */
    retentionDays: number;
    /** Mail delivery: tries after the first, the first retry's delay (doubled each time), a try's limit. */
    mail: { retryLimit: number; retryDelaySeconds: number; expireInSeconds: number };
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
  overload: { maxEventLoopDelayMs: 1_000 },
  jobs: {
    work: true,
    schedule: true,
    supervise: true,
    pollingIntervalSeconds: 2,
    maintenanceIntervalSeconds: 60,
    shutdownMs: 10_000,
    retentionDays: 7,
    // 30 s doubling (with jitter) for 10 retries: a mail is given up after 9 to 17 hours of refusals.
    mail: { retryLimit: 10, retryDelaySeconds: 30, expireInSeconds: 120 },
  },
};
