import type { FastifyInstance } from 'fastify';
import {
  ATTACHMENT_MIME_TYPES,
  attachmentKind,
  messages,
  ticketRequestLabels,
  type Ticket,
  type TicketStatus,
  type TicketType,
} from '@portal/shared';
import { badRequest, isUniqueViolation, notFound } from '../../lib/errors.js';
import type { SheetColumn } from '../../lib/spreadsheet.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { deleteStoredFile } from '../files/files.repo.js';
import { withStoredFile } from '../files/files.service.js';
import { detectAllowedType, type Upload } from '../files/uploads.js';
import { notifySuperAdmins } from '../notifications/notifications.repo.js';
import {
  deleteTicketRow,
  findTicket,
  insertTicket,
  iterateTickets,
  listTickets,
  organizationName,
  setTicketStatus,
  type TicketFilter,
} from './support.repo.js';

let lastStamp = 0;
/**
 * `TICKET-` plus a millisecond timestamp. Within a process the stamps only go up; two
 * processes can still pick the same one, which the unique index refuses and `createTicket` retries.
 */
function nextDisplayId(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return `${messages.support.ticketIdPrefix}${lastStamp}`;
}

const DISPLAY_ID_ATTEMPTS = 5;

function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function ticketFilter(auth: Actor, query: Omit<TicketFilter, 'organizationId'>): TicketFilter {
  return { organizationId: tenantScope(auth), search: query.search || undefined, status: query.status };
}

export async function listOrganizationTickets(
  app: FastifyInstance,
  auth: Actor,
  query: { page: number; pageSize: number; search?: string | undefined; status?: TicketStatus | undefined },
) {
  return listTickets(app.db, ticketFilter(auth, query), query.page, query.pageSize);
}

export async function getTicket(app: FastifyInstance, auth: Actor, id: string): Promise<Ticket> {
  const ticket = await findTicket(app.db, id, tenantScope(auth));
  if (!ticket) throw notFound(messages.support.notFound);
  return ticket;
}

/**
 * Raises a ticket in the caller's organization, with an optional attachment whose type is judged by
 * its content. Super administrators are notified.
 */
export async function createTicket(
  app: FastifyInstance,
  auth: Actor,
  input: { message: string; type: TicketType },
  upload: Upload | null,
): Promise<Ticket> {
  let attachment: { fileName: string; mimeType: string; data: Buffer } | null = null;
  if (upload) {
    const mimeType = await detectAllowedType(upload.data, upload.fileName, ATTACHMENT_MIME_TYPES);
    if (!mimeType)
      throw badRequest(messages.support.fileTypeRejected, { file: [messages.support.fileTypeRejected] });
    attachment = { fileName: upload.fileName, mimeType, data: upload.data };
  }
  const orgName = await organizationName(app.db, auth.organizationId);

  const raise = async (fileId: string | null): Promise<string> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await app.db.transaction(async (tx) => {
          const displayId = nextDisplayId();
          const ticketId = await insertTicket(tx, {
            displayId,
            organizationId: auth.organizationId,
            createdBy: auth.userId,
            type: input.type,
            message: input.message,
            fileId,
            fileName: attachment?.fileName ?? null,
            fileType: attachment?.mimeType ?? null,
          });
          const callback = input.type === 'callback';
          await notifySuperAdmins(tx, auth.organizationId, {
            kind: 'ticket_created',
            title: callback ? 'Call back requested' : 'New support ticket',
            body: `${orgName}: ${displayId} — ${excerpt(input.message, 140)}`,
            link: '/dashboard/support',
          });
          await recordActivity(tx, {
            organizationId: auth.organizationId,
            actorUserId: auth.userId,
            action: 'created',
            entityType: 'support_ticket',
            entityId: ticketId,
            message: callback ? `Requested a call back (${displayId})` : `Raised support ticket ${displayId}`,
          });
          return ticketId;
        });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= DISPLAY_ID_ATTEMPTS) throw error;
      }
    }
  };
  // The attachment is stored before the ticket's transaction (docs/decisions/022).
  const id = attachment
    ? await withStoredFile(
        app.db,
        { ...attachment, organizationId: auth.organizationId, ownerUserId: auth.userId },
        raise,
        { oneAtATime: app.dbKind === 'pglite' },
      )
    : await raise(null);
  return getTicket(app, auth, id);
}

export async function changeTicketStatus(
  app: FastifyInstance,
  auth: Actor,
  id: string,
  status: TicketStatus,
): Promise<Ticket> {
  const ticket = await getTicket(app, auth, id);
  await app.db.transaction(async (tx) => {
    await setTicketStatus(tx, id, status);
    await recordActivity(tx, {
      organizationId: ticket.organizationId,
      actorUserId: auth.userId,
      action: 'updated',
      entityType: 'support_ticket',
      entityId: id,
      message: `${status === 'Active' ? 'Activated' : 'Deactivated'} support ticket ${ticket.ticketId}`,
    });
  });
  return getTicket(app, auth, id);
}

/** Deletes the ticket and its attachment. */
export async function deleteTicket(app: FastifyInstance, auth: Actor, id: string): Promise<void> {
  const ticket = await getTicket(app, auth, id);
  await app.db.transaction(async (tx) => {
    const fileId = await deleteTicketRow(tx, id);
    if (fileId) await deleteStoredFile(tx, fileId);
    await recordActivity(tx, {
      organizationId: ticket.organizationId,
      actorUserId: auth.userId,
      action: 'deleted',
      entityType: 'support_ticket',
      entityId: id,
      message: `Deleted support ticket ${ticket.ticketId}`,
    });
  });
}

/** The columns of "Export To Excel": the table's, plus what a spreadsheet reader needs. */
export function ticketExportColumns(auth: Actor): SheetColumn<Ticket>[] {
  return [
    { header: 'Ticket ID', width: 22, value: (t) => t.ticketId },
    { header: 'Name', width: 30, value: (t) => t.name },
    { header: 'Type', width: 12, value: (t) => ticketRequestLabels[t.ticketType] },
    { header: 'Attachment', width: 12, value: (t) => attachmentKind(t.type) },
    { header: 'Message', width: 60, value: (t) => t.message },
    { header: 'Status', width: 10, value: (t) => t.status },
    ...(auth.isSuperAdmin
      ? [{ header: 'Organization', width: 28, value: (t: Ticket) => t.organizationName }]
      : []),
    { header: 'Raised By', width: 24, value: (t) => t.createdByName },
    { header: 'Created Date', width: 20, value: (t) => new Date(t.createdAt) },
    { header: 'Updated Date', width: 20, value: (t) => new Date(t.updatedDate) },
  ];
}

export function ticketsForExport(
  app: FastifyInstance,
  auth: Actor,
  filter: Omit<TicketFilter, 'organizationId'>,
) {
  return iterateTickets(app.db, ticketFilter(auth, filter));
}
