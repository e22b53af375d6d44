import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ActivityItem, ActivityType } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import { activityEntries, users } from '../../db/schema/index.js';

export interface ActivityFilter extends PageQuery {
  /** null: every organization (super_admin). */
  organizationId: string | null;
  type?: ActivityType | undefined;
  entityType?: string | undefined;
  search?: string | undefined;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function whereOf(filter: Omit<ActivityFilter, 'page' | 'pageSize'>): SQL | undefined {
  return and(
    filter.organizationId ? eq(activityEntries.organizationId, filter.organizationId) : undefined,
    filter.type ? eq(activityEntries.action, filter.type) : undefined,
    // One kind, or several separated by commas (a subscription's timeline: billing_plan,renewal,…).
    filter.entityType ? inArray(activityEntries.entityType, filter.entityType.split(',')) : undefined,
    filter.search ? sql`${activityEntries.message} ilike ${`%${escapeLike(filter.search)}%`}` : undefined,
  );
}

const itemColumns = {
  id: activityEntries.id,
  action: activityEntries.action,
  message: activityEntries.message,
  entityType: activityEntries.entityType,
  entityId: activityEntries.entityId,
  organizationId: activityEntries.organizationId,
  actorUserId: activityEntries.actorUserId,
  actorName: sql<string | null>`coalesce(${users.fullName}, ${users.username})`,
  createdAt: activityEntries.createdAt,
};

type ItemRow = {
  id: string;
  action: ActivityType;
  message: string;
  entityType: string;
  entityId: string | null;
  organizationId: string;
  actorUserId: string | null;
  actorName: string | null;
  createdAt: Date;
};

function toItem(row: ItemRow): ActivityItem {
  return {
    id: row.id,
    type: row.action,
    message: row.message,
    entityType: row.entityType,
    entityId: row.entityId,
    organizationId: row.organizationId,
    actorUserId: row.actorUserId,
    actorName: row.actorName,
    date: row.createdAt.toISOString(),
  };
}

/**
 * Newest first. The organization filter plus `created_at desc` walks the
 * `(organization_id, created_at)` index (or `(created_at)` for every organization), so a page costs
 * its own rows, not the table's.
 */
async function pageRows(
  db: Db,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<ActivityItem[]> {
  const rows = await db
    .select(itemColumns)
    .from(activityEntries)
    .leftJoin(users, eq(users.id, activityEntries.actorUserId))
    .where(where)
    .orderBy(desc(activityEntries.createdAt), desc(activityEntries.id))
    .limit(limit)
    .offset(offset);
  return rows.map(toItem);
}

export async function listActivities(
  db: Db,
  filter: ActivityFilter,
): Promise<{ items: ActivityItem[]; total: number }> {
  const where = whereOf(filter);
  const offset = offsetOf(filter);
  const items = await pageRows(db, where, filter.pageSize, offset);
  // A short page that is not past the end tells the total without counting.
  if (items.length < filter.pageSize && (items.length > 0 || offset === 0)) {
    return { items, total: offset + items.length };
  }
  const [row] = await db.select({ total: count() }).from(activityEntries).where(where);
  return { items, total: row?.total ?? 0 };
}

export async function recentActivities(
  db: Db,
  organizationId: string | null,
  limit: number,
): Promise<ActivityItem[]> {
  return pageRows(db, whereOf({ organizationId }), limit, 0);
}
