import { and, eq, gt, isNotNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { rateLimitBuckets, roles, users, userTotp } from '../../db/schema/index.js';
import { identityVersionOf, identityVersionSql } from '../../core/identity/cache.repo.js';
import { countHit } from '../../core/rate-limits.repo.js';
import { codeFailureKey, FAILURE_KEY_PREFIX, failureKey } from '../../core/sign-in-failures.repo.js';
import { userDtoColumns, type UserDtoRow } from '../../core/identity/users.repo.js';
import { twoFactorRequiredSql } from '../../core/identity/second-factor.repo.js';

export interface SignInCandidate extends UserDtoRow {
  passwordHash: string | null;
  /** Failed sign-ins to this account from this address in the open lock window. */
  failuresFromAddress: number;
  /** The identity version read with the row, for building the answer from the identity cache. */
  version: number;
  /**
   * The confirmed second factor's secret as stored; null without one. With one, the password step
   * answers a challenge (it is sealed into it), not a session.
   */
  secretCiphertext: string | null;
  /** The user's role requires a second factor (the super administrator's always does). */
  twoFactorRequired: boolean;
}

export interface SignInAttempt {
  /** Sign-in attempts from the client's address in the current window, this one included. */
  hits: number;
  candidate: SignInCandidate | null;
}

/**
 * Counts the attempt against its address's limit, then reads the account an identifier (email or
 * username, lower-cased) names, with what sign-in checks and what its answer shows, and its failed
 * attempts from this address: a successful sign-in reads the user once.
 */
export async function recordSignInAttempt(
  db: Db,
  identifier: string,
  address: string,
  windows: { addressKey: string; addressWindowMs: number; lockWindowMs: number },
): Promise<SignInAttempt> {
  const hits = await countHit(db, windows.addressKey, windows.addressWindowMs);
  const lockOpenedAfter = new Date(Date.now() - windows.lockWindowMs);
  const [row] = await db
    .select({
      version: identityVersionSql,
      ...userDtoColumns,
      passwordHash: users.passwordHash,
      failures: rateLimitBuckets.count,
      secretCiphertext: sql<
        string | null
      >`case when ${userTotp.confirmedAt} is not null then ${userTotp.secretCiphertext} end`,
      twoFactorRequired: twoFactorRequiredSql,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(userTotp, eq(userTotp.userId, users.id))
    .leftJoin(
      rateLimitBuckets,
      and(
        eq(rateLimitBuckets.key, sql`${FAILURE_KEY_PREFIX} || ${users.id} || ${`:${address}`}`),
        gt(rateLimitBuckets.windowStart, lockOpenedAfter),
      ),
    )
    .where(or(eq(sql`lower(${users.email})`, identifier), eq(sql`lower(${users.username})`, identifier)))
    .limit(1);
  if (!row) return { hits, candidate: null };
  const { version, failures, ...candidate } = row;
  return {
    hits,
    candidate: { ...candidate, failuresFromAddress: failures ?? 0, version: identityVersionOf(version) },
  };
}

/**
 * What the second step's statement decided: the code (or recovery code) and the challenge were
 * claimed; the code was wrong or used, or the account locked, capped or inactive (one answer for all
 * of them); or the challenge was spent by a completed sign-in.
 */
export type SecondStepOutcome = 'claimed' | 'refused' | 'spent';

export interface SecondStep extends UserDtoRow {
  outcome: SecondStepOutcome;
  /** Failed sign-ins to this account from this address in the open lock window. */
  failuresFromAddress: number;
  version: number;
  twoFactorRequired: boolean;
}

const codeFailures = alias(rateLimitBuckets, 'code_failures');

/**
 * The second step in one statement: the challenge's account as sign-in's answer shows it, provided
 * its confirmed factor is still the sealed one, and, for that one row, claim_second_step (migration
 * 0008) spending the code's time step or the recovery code and the challenge, unless the account is
 * inactive, locked from this address, or has had its fill of wrong codes from all addresses.
 */
function prepareSecondStep(db: Db) {
  const openWindow = sql`${sql.placeholder('lockOpenedAfter')}::timestamptz`;
  const allowed = sql`${users.isActive}
    and coalesce(${rateLimitBuckets.count}, 0) < ${sql.placeholder('lockoutThreshold')}::int
    and coalesce(${codeFailures.count}, 0) < ${sql.placeholder('codeFailureLimit')}::int`;
  return db
    .select({
      version: identityVersionSql,
      ...userDtoColumns,
      failures: rateLimitBuckets.count,
      twoFactorRequired: twoFactorRequiredSql,
      outcome: sql<SecondStepOutcome>`claim_second_step(${users.id}, ${sql.placeholder('issuedAt')}::timestamptz, ${sql.placeholder('step')}::bigint, ${sql.placeholder('recoveryHash')}::text, ${allowed})`,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .innerJoin(
      userTotp,
      and(
        eq(userTotp.userId, users.id),
        isNotNull(userTotp.confirmedAt),
        eq(userTotp.secretCiphertext, sql.placeholder('secretCiphertext')),
      ),
    )
    .leftJoin(
      rateLimitBuckets,
      and(
        eq(rateLimitBuckets.key, sql.placeholder('addressFailureKey')),
        gt(rateLimitBuckets.windowStart, openWindow),
      ),
    )
    .leftJoin(
      codeFailures,
      and(eq(codeFailures.key, sql.placeholder('codeFailureKey')), gt(codeFailures.windowStart, openWindow)),
    )
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('second_step');
}
const secondSteps = new WeakMap<Db, ReturnType<typeof prepareSecondStep>>();

/**
 * Runs the second step's one statement (prepared once per database handle: each connection parses
 * and plans it once). A step of -1 or a recovery hash nothing has claims nothing through the same
 * statements, so wrong, used and locked take the same path. Null: the account or its factor is gone
 * or changed since the password step.
 */
export async function runSecondStep(
  db: Db,
  attempt: {
    userId: string;
    issuedAt: Date;
    secretCiphertext: string;
    code: { step: number } | { recoveryHash: string };
    address: string;
    lockWindowMs: number;
    lockoutThreshold: number;
    codeFailureLimit: number;
  },
): Promise<SecondStep | null> {
  let query = secondSteps.get(db);
  if (!query) secondSteps.set(db, (query = prepareSecondStep(db)));
  const [row] = await query.execute({
    userId: attempt.userId,
    secretCiphertext: attempt.secretCiphertext,
    issuedAt: attempt.issuedAt.toISOString(),
    step: 'step' in attempt.code ? attempt.code.step : -1,
    recoveryHash: 'recoveryHash' in attempt.code ? attempt.code.recoveryHash : null,
    addressFailureKey: failureKey(attempt.userId, attempt.address),
    lockOpenedAfter: new Date(Date.now() - attempt.lockWindowMs).toISOString(),
    lockoutThreshold: attempt.lockoutThreshold,
    codeFailureKey: codeFailureKey(attempt.userId),
    codeFailureLimit: attempt.codeFailureLimit,
  });
  if (!row) return null;
  const { version, failures, ...step } = row;
  return { ...step, failuresFromAddress: failures ?? 0, version: identityVersionOf(version) };
}
