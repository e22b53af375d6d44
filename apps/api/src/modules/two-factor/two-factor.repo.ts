import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { recoveryCodes, roles, users, userTotp } from '../../db/schema/index.js';
import { twoFactorEnabledSql, twoFactorRequiredSql } from '../../core/identity/second-factor.repo.js';

export type TotpRow = typeof userTotp.$inferSelect;

/**
 * The account a second factor belongs to, by id or by email (compared case-insensitively): what the
 * authenticator app shows, what proves the owner (the password) and what the activity log names.
 */
export async function findAccount(db: Db, by: { userId: string } | { email: string }) {
  const [row] = await db
    .select({
      id: users.id,
      organizationId: users.organizationId,
      username: users.username,
      email: users.email,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(
      'userId' in by
        ? eq(users.id, by.userId)
        : eq(sql`lower(${users.email})`, by.email.trim().toLowerCase()),
    )
    .limit(1);
  return row ?? null;
}

export async function findTotp(db: Db, userId: string): Promise<TotpRow | null> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
  return row ?? null;
}

/** Whether the user's role requires a second factor, and whether they have one (sign-in's answer). */
export async function findTwoFactorState(db: Db, userId: string) {
  const [row] = await db
    .select({
      required: twoFactorRequiredSql,
      enabled: twoFactorEnabledSql,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(userTotp, eq(userTotp.userId, users.id))
    .where(eq(users.id, userId));
  return row ?? { required: false, enabled: false };
}

/** A new secret waiting for its first code; replaces one already waiting, never a confirmed one. */
export async function savePendingSecret(db: Db, userId: string, secretCiphertext: string): Promise<boolean> {
  const rows = await db
    .insert(userTotp)
    .values({ userId, secretCiphertext })
    .onConflictDoUpdate({
      target: userTotp.userId,
      set: { secretCiphertext, lastUsedStep: null, createdAt: sql`now()` },
      setWhere: isNull(userTotp.confirmedAt),
    })
    .returning({ userId: userTotp.userId });
  return rows.length === 1;
}

/**
 * Accepts a code's time step once: a conditional update, so of two requests with the same code
 * exactly one succeeds. A step of -1 (no code matched, or the account is locked) updates nothing,
 * through the same statement.
 */
export async function claimStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(userTotp)
    .set({ lastUsedStep: step })
    .where(and(eq(userTotp.userId, userId), sql`${step} > coalesce(${userTotp.lastUsedStep}, -1)`))
    .returning({ userId: userTotp.userId });
  return rows.length === 1;
}

export async function confirmTotp(db: Db, userId: string) {
  await db
    .update(userTotp)
    .set({ confirmedAt: sql`now()` })
    .where(eq(userTotp.userId, userId));
}

export async function deleteTwoFactor(db: Db, userId: string) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(userTotp).where(eq(userTotp.userId, userId));
}

export async function replaceRecoveryCodes(db: Db, userId: string, codeHashes: readonly string[]) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Spends an unused recovery code; of two requests with the same code exactly one succeeds. */
export async function spendRecoveryCode(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function countRecoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ left: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.left ?? 0;
}
