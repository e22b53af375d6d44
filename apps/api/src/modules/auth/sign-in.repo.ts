import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { identityVersionOf, identityVersionSql } from '../../lib/identity-cache.js';
import { executePrepared } from '../../lib/statements.js';
import { hitStatement } from '../platform/rate-limit.repo.js';
import { userDtoJson, userDtoRowOf, type UserDtoJson, type UserDtoRow } from '../users/user-dto.repo.js';

export interface SignInCandidate extends UserDtoRow {
  passwordHash: string | null;
  failedLoginCount: number;
  lockedUntil: Date | null;
  /** The identity version read with the row, for building the answer from the identity cache. */
  version: number;
}

export interface SignInAttempt {
  /** Sign-in attempts from the client's address in the current window, this one included. */
  hits: number;
  candidate: SignInCandidate | null;
}

/**
 * Counts the attempt against its address's limit and reads the account an identifier (email or
 * username, lower-cased) names, with what sign-in checks and what its answer shows, in one statement:
 * one round trip before the hash, and a successful sign-in reads the user once.
 */
export async function recordSignInAttempt(
  db: Db,
  identifier: string,
  limit: { key: string; windowMs: number },
): Promise<SignInAttempt> {
  const [row] = await executePrepared<{
    hits: number;
    version: number | string | null;
    user: UserDtoJson | null;
    passwordHash: string | null;
    failedLoginCount: number | null;
    lockedUntil: string | Date | null;
  }>(
    db,
    sql`
      with hit as (${hitStatement(limit.key, limit.windowMs)})
      select (select count from hit) as "hits", c.*
      from (select 1) as one
      left join lateral (
        select ${identityVersionSql} as "version", ${userDtoJson} as "user", ${users.passwordHash} as "passwordHash",
          ${users.failedLoginCount} as "failedLoginCount", ${users.lockedUntil} as "lockedUntil"
        from ${users}
        where lower(${users.email}) = ${identifier} or lower(${users.username}) = ${identifier}
        limit 1
      ) as c on true`,
  );
  if (!row?.user) return { hits: row?.hits ?? 1, candidate: null };
  return {
    hits: row.hits,
    candidate: {
      ...userDtoRowOf(row.user),
      passwordHash: row.passwordHash,
      failedLoginCount: row.failedLoginCount ?? 0,
      version: identityVersionOf(row.version),
      lockedUntil: row.lockedUntil === null ? null : new Date(row.lockedUntil),
    },
  };
}
