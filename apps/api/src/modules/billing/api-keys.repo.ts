import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import { apiKeys } from '../../db/schema/index.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(db: Db, values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row!;
}

export async function listApiKeyRows(
  db: Db,
  organizationId: string,
  page: PageQuery,
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const where = eq(apiKeys.organizationId, organizationId);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(where)
      .orderBy(sql`${apiKeys.revokedAt} is not null`, asc(apiKeys.createdAt))
      .limit(page.pageSize)
      .offset(offsetOf(page)),
    db.select({ total: count() }).from(apiKeys).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

/** Revokes a live key of the organization (`scope` null: any); null when unknown or already revoked. */
export async function revokeApiKeyRow(db: Db, id: string, scope: string | null): Promise<ApiKeyRow | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(apiKeys.id, id),
        isNull(apiKeys.revokedAt),
        scope ? eq(apiKeys.organizationId, scope) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

export async function findApiKey(db: Db, id: string, scope: string | null): Promise<ApiKeyRow | null> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), scope ? eq(apiKeys.organizationId, scope) : undefined))
    .limit(1);
  return row ?? null;
}

export async function findLiveApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRow | null> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}

export async function touchApiKey(db: Db, id: string): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, id));
}
