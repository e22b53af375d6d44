import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { messages, TICKET_TEXT_TYPE, type Ticket, type TicketStatus } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import { organizations, supportTickets, users } from '../../db/schema/index.js';

export interface TicketFilter {
  /** null: every organization (super_admin). */
  organizationId: string | null;
  search?: string | undefined;
  status?: TicketStatus | undefined;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function whereOf(filter: TicketFilter): SQL | undefined {
  const pattern = filter.search ? `%${escapeLike(filter.search)}%` : null;
  return and(
    filter.organizationId ? eq(supportTickets.organizationId, filter.organizationId) : undefined,
    filter.status ? eq(supportTickets.status, filter.status) : undefined,
    pattern
      ? or(
          sql`${supportTickets.displayId} ilike ${pattern}`,
          sql`${supportTickets.message} ilike ${pattern}`,
          sql`${supportTickets.fileName} ilike ${pattern}`,
        )
      : undefined,
  );
}

const ticketColumns = {
  ticket: supportTickets,
  organizationName: organizations.name,
  createdByName: sql<string | null>`coalesce(${users.fullName}, ${users.username})`,
};

type TicketRow = {
  ticket: typeof supportTickets.$inferSelect;
  organizationName: string;
  createdByName: string | null;
};

function toTicket({ ticket, organizationName, createdByName }: TicketRow): Ticket {
  return {
    id: ticket.id,
    ticketId: ticket.displayId,
    organizationId: ticket.organizationId,
    organizationName,
    ticketType: ticket.type,
    name: ticket.fileName ?? messages.support.noFile,
    type: ticket.fileType ?? TICKET_TEXT_TYPE,
    message: ticket.message,
    status: ticket.status,
    file: ticket.fileId ? `/api/files/${ticket.fileId}` : null,
    createdBy: ticket.createdBy,
    createdByName,
    createdAt: ticket.createdAt.toISOString(),
    updatedDate: ticket.updatedAt.toISOString(),
  };
}

function selectTickets(db: Db) {
  return db
    .select(ticketColumns)
    .from(supportTickets)
    .innerJoin(organizations, eq(organizations.id, supportTickets.organizationId))
    .leftJoin(users, eq(users.id, supportTickets.createdBy));
}

/** Most recently updated first; the `(organization_id, updated_at)` index serves a tenant's pages. */
async function pageRows(db: Db, filter: TicketFilter, limit: number, offset: number): Promise<Ticket[]> {
  const rows = await selectTickets(db)
    .where(whereOf(filter))
    .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id))
    .limit(limit)
    .offset(offset);
  return rows.map(toTicket);
}

export async function listTickets(
  db: Db,
  filter: TicketFilter,
  query: PageQuery,
): Promise<{ items: Ticket[]; total: number }> {
  const { pageSize } = query;
  const offset = offsetOf(query);
  const items = await pageRows(db, filter, pageSize, offset);
  if (items.length < pageSize && (items.length > 0 || offset === 0)) {
    return { items, total: offset + items.length };
  }
  const [row] = await db.select({ total: count() }).from(supportTickets).where(whereOf(filter));
  return { items, total: row?.total ?? 0 };
}

/** Every matching ticket, read in batches so an export never holds them all. */
export async function* iterateTickets(db: Db, filter: TicketFilter, batchSize = 500): AsyncGenerator<Ticket> {
  for (let offset = 0; ; offset += batchSize) {
    const batch = await pageRows(db, filter, batchSize, offset);
    yield* batch;
    if (batch.length < batchSize) return;
  }
}

/** A ticket within `organizationId` (any organization when null). */
export async function findTicket(db: Db, id: string, organizationId: string | null): Promise<Ticket | null> {
  const [row] = await selectTickets(db)
    .where(
      and(
        eq(supportTickets.id, id),
        organizationId ? eq(supportTickets.organizationId, organizationId) : undefined,
      ),
    )
    .limit(1);
  return row ? toTicket(row) : null;
}

export async function insertTicket(db: Db, values: typeof supportTickets.$inferInsert): Promise<string> {
  const [row] = await db.insert(supportTickets).values(values).returning({ id: supportTickets.id });
  return row!.id;
}

export async function setTicketStatus(db: Db, id: string, status: TicketStatus): Promise<void> {
  await db.update(supportTickets).set({ status, updatedAt: new Date() }).where(eq(supportTickets.id, id));
}

/** Deletes the ticket; returns its attachment's file id, if any, for the caller to delete. */
export async function deleteTicketRow(db: Db, id: string): Promise<string | null> {
  const [row] = await db
    .delete(supportTickets)
    .where(eq(supportTickets.id, id))
    .returning({ fileId: supportTickets.fileId });
  return row?.fileId ?? null;
}

export async function organizationName(db: Db, organizationId: string): Promise<string> {
  const [row] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row?.name ?? '';
}
