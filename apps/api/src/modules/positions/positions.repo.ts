import { and, asc, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Position, PositionListQuery, PositionStatus } from '@portal/shared';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import { organizations, positions } from '../../db/schema/index.js';

export interface PositionFilter extends PageQuery {
  /** null: every organization (super_admin). */
  organizationId: string | null;
  search?: string | undefined;
  status?: PositionStatus | undefined;
  sort: PositionListQuery['sort'];
  order: 'asc' | 'desc';
}

const columns = { position: positions, organizationName: organizations.name };
type Row = { position: typeof positions.$inferSelect; organizationName: string };

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function toPositionDto({ position: p, organizationName }: Row): Position {
  return {
    id: p.id,
    organizationId: p.organizationId,
    organizationName,
    title: p.title,
    department: p.department,
    location: p.location,
    openings: p.openings,
    status: p.status,
    closedAt: p.closedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

const sortColumns: Record<PositionFilter['sort'], SQL | PgColumn> = {
  title: sql`lower(${positions.title})`,
  department: sql`lower(${positions.department})`,
  location: sql`lower(${positions.location})`,
  openings: positions.openings,
  status: positions.status,
  createdAt: positions.createdAt,
};

export async function listPositions(
  db: Db,
  filter: PositionFilter,
): Promise<{ items: Position[]; total: number }> {
  const pattern = filter.search ? `%${escapeLike(filter.search)}%` : undefined;
  const where = and(
    filter.organizationId ? eq(positions.organizationId, filter.organizationId) : undefined,
    filter.status ? eq(positions.status, filter.status) : undefined,
    pattern
      ? or(
          sql`${positions.title} ilike ${pattern}`,
          sql`${positions.department} ilike ${pattern}`,
          sql`${positions.location} ilike ${pattern}`,
        )
      : undefined,
  );
  const direction = filter.order === 'asc' ? asc : desc;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select(columns)
      .from(positions)
      .innerJoin(organizations, eq(organizations.id, positions.organizationId))
      .where(where)
      .orderBy(direction(sortColumns[filter.sort]), direction(positions.createdAt), asc(positions.id))
      .limit(filter.pageSize)
      .offset(offsetOf(filter)),
    db.select({ total: count() }).from(positions).where(where),
  ]);
  return { items: rows.map(toPositionDto), total: totalRow?.total ?? 0 };
}

/** A position the organization may see (null: any), locked for update when `lock` is set. */
export async function findPosition(
  db: Db,
  id: string,
  organizationId: string | null,
  lock = false,
): Promise<Position | null> {
  const query = db
    .select(columns)
    .from(positions)
    .innerJoin(organizations, eq(organizations.id, positions.organizationId))
    .where(
      and(eq(positions.id, id), organizationId ? eq(positions.organizationId, organizationId) : undefined),
    )
    .limit(1);
  const [row] = lock ? await query.for('update', { of: positions }) : await query;
  return row ? toPositionDto(row) : null;
}

/** The organization's positions whose title, compared lowercase, is one of `lowerTitles`. */
export async function findPositionsByTitles(
  db: Db,
  organizationId: string,
  lowerTitles: readonly string[],
): Promise<Position[]> {
  const rows = await db
    .select(columns)
    .from(positions)
    .innerJoin(organizations, eq(organizations.id, positions.organizationId))
    .where(
      and(
        eq(positions.organizationId, organizationId),
        sql`lower(${positions.title}) = any(${sql.param([...lowerTitles])}::text[])`,
      ),
    );
  return rows.map(toPositionDto);
}

/**
 * Waits for, then holds until the transaction ends, the organization's lock on creating positions by
 * title: a title found free under it stays free until this transaction commits.
 */
export async function lockTitlesOf(db: Db, organizationId: string): Promise<void> {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`positions by title:${organizationId}`}::text))`,
  );
}

export async function organizationExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id));
  return Boolean(row);
}

export async function insertPosition(
  db: Db,
  values: Pick<
    typeof positions.$inferInsert,
    'organizationId' | 'title' | 'department' | 'location' | 'openings' | 'createdBy'
  >,
): Promise<string> {
  const [row] = await db.insert(positions).values(values).returning({ id: positions.id });
  return row!.id;
}

export async function updatePosition(
  db: Db,
  id: string,
  values: Partial<
    Pick<
      typeof positions.$inferInsert,
      'title' | 'department' | 'location' | 'openings' | 'status' | 'closedAt'
    >
  >,
): Promise<void> {
  await db
    .update(positions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(positions.id, id));
}
