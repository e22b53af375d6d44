import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations } from '../../db/schema/index.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';

export interface OrganizationFilter {
  /** Tenant confinement: null for super_admin. */
  scope: string | null;
  search?: string | undefined;
  order: 'asc' | 'desc';
  sort: 'name' | 'createdAt';
}

/** One page of organizations, by name or creation date, with the total matching. */
export async function listOrganizationRows(db: Db, filter: OrganizationFilter, page: PageQuery) {
  const term = filter.search?.trim().toLowerCase();
  const where = and(
    filter.scope ? eq(organizations.id, filter.scope) : undefined,
    term
      ? sql`lower(${organizations.name}) like ${`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`
      : undefined,
  );
  const key = filter.sort === 'name' ? sql`lower(${organizations.name})` : sql`${organizations.createdAt}`;
  const direction = filter.order === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: organizations.id,
        name: organizations.name,
        isPlatform: organizations.isPlatform,
        createdAt: organizations.createdAt,
      })
      .from(organizations)
      .where(where)
      .orderBy(direction(key), direction(organizations.id))
      .limit(page.pageSize)
      .offset(offsetOf(page)),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(organizations)
      .where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findOrganizationById(db: Db, id: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, isPlatform: organizations.isPlatform })
    .from(organizations)
    .where(eq(organizations.id, id))
    .limit(1);
  return row ?? null;
}

/** Creates the organization unless it exists (idempotent); true when this call made it. */
export async function insertOrganizationIfMissing(db: Db, values: { id: string; name: string }) {
  const rows = await db
    .insert(organizations)
    .values(values)
    .onConflictDoNothing({ target: organizations.id })
    .returning({ id: organizations.id });
  return rows.length === 1;
}

/** The organizations with any of these ids or lowercase names, oldest first. */
export async function findOrganizationsByIdOrName(db: Db, ids: readonly string[], names: readonly string[]) {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      isPlatform: organizations.isPlatform,
      createdAt: organizations.createdAt,
      gstStateCode: organizations.gstStateCode,
      gstin: organizations.gstin,
    })
    .from(organizations)
    .where(
      or(
        sql`${organizations.id} = any(${sql.param([...ids])}::uuid[])`,
        sql`lower(${organizations.name}) = any(${sql.param([...names])}::text[])`,
      ),
    )
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
}

/** Sets the GST state and GSTIN given at onboarding. */
export async function updateTaxParticulars(
  db: Db,
  id: string,
  values: { gstStateCode: string | null; gstin: string | null },
) {
  await db
    .update(organizations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(organizations.id, id));
}
