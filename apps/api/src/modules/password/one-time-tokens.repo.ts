import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { oneTimeTokens } from '../../db/schema/index.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';

export type TokenPurpose = 'invite' | 'password_reset';

/** Issues a one-time token (stored hashed) and voids the user's earlier ones of that purpose. */
export async function issueOneTimeToken(
  db: Db,
  userId: string,
  purpose: TokenPurpose,
  validHours: number,
): Promise<string> {
  const token = randomToken();
  await db
    .update(oneTimeTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)),
    );
  await db.insert(oneTimeTokens).values({
    userId,
    purpose,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(Date.now() + validHours * 3_600_000),
  });
  return token;
}

/**
 * `issueOneTimeToken` for several users at once (users created together, such as an import's), in two
 * statements whatever their number: one token each, their earlier ones of that purpose voided.
 * Answers the tokens in the order of `userIds`, which must not repeat.
 */
export async function issueOneTimeTokens(
  db: Db,
  userIds: readonly string[],
  purpose: TokenPurpose,
  validHours: number,
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const tokens = userIds.map(() => randomToken());
  await db
    .update(oneTimeTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        sql`${oneTimeTokens.userId} = any(${sql.param([...userIds])}::uuid[])`,
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
      ),
    );
  const expiresAt = new Date(Date.now() + validHours * 3_600_000);
  await db
    .insert(oneTimeTokens)
    .values(userIds.map((userId, i) => ({ userId, purpose, tokenHash: sha256Hex(tokens[i]!), expiresAt })));
  return tokens;
}

/** Whether a token is live (known, unused, unexpired), without using it. */
export async function findLiveOneTimeToken(db: Db, token: string): Promise<boolean> {
  const [row] = await db
    .select({ id: oneTimeTokens.id })
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.tokenHash, sha256Hex(token)),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Marks a live token used and returns its owner; null when unknown, used or expired. */
export async function consumeOneTimeToken(db: Db, token: string) {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, sha256Hex(token)),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: oneTimeTokens.userId, purpose: oneTimeTokens.purpose });
  return row ?? null;
}
