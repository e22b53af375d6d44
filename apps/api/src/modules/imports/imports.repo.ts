import { and, asc, count, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { ImportKind, ImportRowOutcome, ImportRowResult } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { importRows, imports } from '../../db/schema/index.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';

export type ImportRecord = typeof imports.$inferSelect;
export type ImportRowRecord = typeof importRows.$inferSelect;
export type NewImportRow = Omit<typeof importRows.$inferInsert, 'importId'>;

/** Rows per insert: 7 parameters each, far below PostgreSQL's 65,535 per statement. */
const INSERT_CHUNK = 1_000;

export async function insertImport(
  db: Db,
  values: typeof imports.$inferInsert,
  rows: readonly NewImportRow[],
): Promise<ImportRecord> {
  const [record] = await db.insert(imports).values(values).returning();
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insert(importRows)
      .values(rows.slice(i, i + INSERT_CHUNK).map((row) => ({ ...row, importId: record!.id })));
  }
  return record!;
}

/** An import, confined to `scope` when it is not null (another organization's reads as missing). */
export async function findImport(db: Db, id: string, scope: string | null): Promise<ImportRecord | null> {
  const [row] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.id, id), scope === null ? undefined : eq(imports.organizationId, scope)));
  return row ?? null;
}

/** The same, locked until the transaction ends: one commit, and one ending, per import. */
export async function lockImport(db: Db, id: string, scope: string | null): Promise<ImportRecord | null> {
  const [row] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.id, id), scope === null ? undefined : eq(imports.organizationId, scope)))
    .for('update');
  return row ?? null;
}

export async function updateImport(db: Db, id: string, changes: Partial<ImportRecord>): Promise<void> {
  await db.update(imports).set(changes).where(eq(imports.id, id));
}

export async function listImportPage(db: Db, scope: string | null, kind: ImportKind, page: PageQuery) {
  const where = and(eq(imports.kind, kind), scope === null ? undefined : eq(imports.organizationId, scope));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(imports)
      .where(where)
      .orderBy(desc(imports.createdAt), desc(imports.id))
      .limit(page.pageSize)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(imports).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

const TAKEN: ImportRowOutcome[] = ['to_create', 'to_update'];
const pending = (importId: string) =>
  and(eq(importRows.importId, importId), isNull(importRows.result), inArray(importRows.outcome, TAKEN));

/** Rows of each import that its commit has still to take (the partial index import_rows_pending). */
export async function countPendingRows(db: Db, importIds: readonly string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (importIds.length === 0) return found;
  const rows = await db
    .select({ importId: importRows.importId, n: count() })
    .from(importRows)
    .where(
      and(
        inArray(importRows.importId, [...importIds]),
        isNull(importRows.result),
        inArray(importRows.outcome, TAKEN),
      ),
    )
    .groupBy(importRows.importId);
  for (const row of rows) found.set(row.importId, Number(row.n));
  return found;
}

/**
 * The next rows a commit takes, locked until its transaction ends. A second runner of the same import
 * waits, then finds them taken (their `result` set), so no row is created twice.
 */
export async function lockPendingRows(db: Db, importId: string, limit: number): Promise<ImportRowRecord[]> {
  return db
    .select()
    .from(importRows)
    .where(pending(importId))
    .orderBy(asc(importRows.rowNumber))
    .limit(limit)
    .for('update');
}

/** A committed row's result: the record made or changed, or why the commit refused it. */
export interface RowResultRecord {
  rowNumber: number;
  result: ImportRowResult;
  recordId: string | null;
  resultError: string | null;
}

/** A batch's results in one statement; a row's record is kept when the result names none. */
export async function setRowResults(
  db: Db,
  importId: string,
  results: readonly RowResultRecord[],
): Promise<void> {
  if (results.length === 0) return;
  const values = sql.join(
    results.map(
      (r) => sql`(${r.rowNumber}::integer, ${r.result}::text, ${r.recordId}::uuid, ${r.resultError}::text)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    update ${importRows} set
      "result" = v.result,
      "result_error" = v.result_error,
      "record_id" = coalesce(v.record_id, ${importRows.recordId})
    from (values ${values}) as v(row_number, result, record_id, result_error)
    where ${importRows.importId} = ${importId} and ${importRows.rowNumber} = v.row_number`);
}

/** How the commit's rows ended. */
export async function countResults(db: Db, importId: string) {
  const [row] = await db
    .select({
      created: sql<number>`count(*) filter (where ${importRows.result} = 'created')`,
      updated: sql<number>`count(*) filter (where ${importRows.result} = 'updated')`,
      failed: sql<number>`count(*) filter (where ${importRows.result} = 'failed')`,
    })
    .from(importRows)
    .where(eq(importRows.importId, importId));
  return {
    created: Number(row?.created ?? 0),
    updated: Number(row?.updated ?? 0),
    failed: Number(row?.failed ?? 0),
  };
}

const withErrors = (importId: string) =>
  and(
    eq(importRows.importId, importId),
    or(eq(importRows.outcome, 'error'), eq(importRows.result, 'failed')),
  );

/** Rows the dry run refused or the commit could not make, in file order, after `afterRow`. */
export async function errorRowsAfter(
  db: Db,
  importId: string,
  afterRow: number,
  limit: number,
): Promise<ImportRowRecord[]> {
  return db
    .select()
    .from(importRows)
    .where(and(withErrors(importId), gt(importRows.rowNumber, afterRow)))
    .orderBy(asc(importRows.rowNumber))
    .limit(limit);
}
