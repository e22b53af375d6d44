import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { identityVersionOf, identityVersionSql } from '../../lib/identity-cache.js';
import { executePrepared } from '../../lib/statements.js';
import { userDtoJson, userDtoRowOf, type UserDtoJson, type UserDtoRow } from '../users/user-dto.repo.js';

export interface SignInCandidate extends UserDtoRow {
  passwordHash: string | null;
  failedLoginCount: number;
  lockedUntil: Date | null;
  /** The identity version read with the row, for building the answer from the identity cache. */
  version: number;
}

/**
 * The account an identifier (email or username, lower-cased) names, with what sign-in checks and
 * what its answer shows, in one statement: a successful sign-in reads the user once.
 */
export async function findSignInCandidate(db: Db, identifier: string): Promise<SignInCandidate | null> {
  const [row] = await executePrepared<{
    version: number | string;
    user: UserDtoJson;
    passwordHash: string | null;
    failedLoginCount: number;
    lockedUntil: string | Date | null;
  }>(
    db,
    sql`
      select ${identityVersionSql} as "version", ${userDtoJson} as "user", ${users.passwordHash} as "passwordHash",
        ${users.failedLoginCount} as "failedLoginCount", ${users.lockedUntil} as "lockedUntil"
      from ${users}
      where lower(${users.email}) = ${identifier} or lower(${users.username}) = ${identifier}
      limit 1`,
  );
  if (!row) return null;
  return {
    ...userDtoRowOf(row.user),
    passwordHash: row.passwordHash,
    failedLoginCount: row.failedLoginCount,
    version: identityVersionOf(row.version),
    lockedUntil: row.lockedUntil === null ? null : new Date(row.lockedUntil),
  };
}
