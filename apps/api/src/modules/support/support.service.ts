import {
  ATTACHMENT_MIME_TYPES,
  attachmentKind,
  messages,
  ticketRequestLabels,
  type Ticket,
  type TicketStatus,
  type TicketType,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import { badRequest, isUniqueViolation, notFound } from '../../lib/errors.js';
import type { PageQuery } from '../../lib/paging.js';
import type { SheetColumn } from '../../lib/spreadsheet.js';
import { detectAllowedType, type Upload } from '../../lib/upload.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { withDb, type Deps } from '../../core/deps.js';
import { deleteStoredFile, withStoredFile } from '../files/index.js';
import { notifySuperAdmins } from '../notifications/index.js';
import * as repo from './support.repo.js';
import type { TicketFilter } from './support.repo.js';

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

function ticketFilter(actor: Actor, query: Omit<TicketFilter, 'organizationId'>): TicketFilter {
  return { organizationId: tenantScope(actor), search: query.search || undefined, status: query.status };
}

export async function listOrganizationTickets(
  deps: Deps,
  actor: Actor,
  query: PageQuery & Omit<TicketFilter, 'organizationId'>,
) {
  return repo.listTickets(deps.db, ticketFilter(actor, query), query);
}

async function visibleTicket(db: Db, actor: Actor, id: string): Promise<Ticket> {
  const ticket = await repo.findTicket(db, id, tenantScope(actor));
  if (!ticket) throw notFound(messages.support.notFound);
  return ticket;
}

export function getTicket(deps: Deps, actor: Actor, input: { id: string }): Promise<Ticket> {
  return visibleTicket(deps.db, actor, input.id);
}

/**
 * Raises a ticket in the caller's organization, with an optional attachment whose type is judged by
 * its content. Super administrators are notified.
 */
export async function createTicket(
  deps: Deps,
  actor: Actor,
  input: { body: { message: string; type: TicketType }; upload: Upload | null },
): Promise<Ticket> {
  const { body, upload } = input;
  let attachment: { fileName: string; mimeType: string; data: Buffer } | null = null;
  if (upload) {
    const mimeType = await detectAllowedType(upload.data, upload.fileName, ATTACHMENT_MIME_TYPES);
    if (!mimeType)
      throw badRequest(messages.support.fileTypeRejected, { file: [messages.support.fileTypeRejected] });
    attachment = { fileName: upload.fileName, mimeType, data: upload.data };
  }
  const orgName = await repo.organizationName(deps.db, actor.organizationId);

  const raise = async (fileId: string | null): Promise<string> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await deps.db.transaction(async (tx) => {
          const displayId = nextDisplayId();
          const ticketId = await repo.insertTicket(tx, {
            displayId,
            organizationId: actor.organizationId,
            createdBy: actor.userId,
            type: body.type,
            message: body.message,
            fileId,
            fileName: attachment?.fileName ?? null,
            fileType: attachment?.mimeType ?? null,
          });
          const callback = body.type === 'callback';
          await notifySuperAdmins(withDb(deps, tx), actor, {
            organizationId: actor.organizationId,
            kind: 'ticket_created',
            title: callback ? 'Call back requested' : 'New support ticket',
            body: `${orgName}: ${displayId} — ${excerpt(body.message, 140)}`,
            link: '/dashboard/support',
          });
          await recordActivity(tx, {
            organizationId: actor.organizationId,
            actorUserId: actor.userId,
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
    ? await withStoredFile(deps, actor, {
        file: { ...attachment, organizationId: actor.organizationId, ownerUserId: actor.userId },
        link: raise,
      })
    : await raise(null);
  return visibleTicket(deps.db, actor, id);
}

export async function changeTicketStatus(
  deps: Deps,
  actor: Actor,
  input: { id: string; status: TicketStatus },
): Promise<Ticket> {
  const { id, status } = input;
  const ticket = await visibleTicket(deps.db, actor, id);
  await deps.db.transaction(async (tx) => {
    await repo.setTicketStatus(tx, id, status);
    await recordActivity(tx, {
      organizationId: ticket.organizationId,
      actorUserId: actor.userId,
      action: 'updated',
      entityType: 'support_ticket',
      entityId: id,
      message: `${status === 'Active' ? 'Activated' : 'Deactivated'} support ticket ${ticket.ticketId}`,
    });
  });
  return visibleTicket(deps.db, actor, id);
}

/** Deletes the ticket and its attachment. */
export async function deleteTicket(deps: Deps, actor: Actor, input: { id: string }): Promise<void> {
  const { id } = input;
  const ticket = await visibleTicket(deps.db, actor, id);
  await deps.db.transaction(async (tx) => {
    const fileId = await repo.deleteTicketRow(tx, id);
    if (fileId) await deleteStoredFile(withDb(deps, tx), actor, { id: fileId });
    await recordActivity(tx, {
      organizationId: ticket.organizationId,
      actorUserId: actor.userId,
      action: 'deleted',
      entityType: 'support_ticket',
      entityId: id,
      message: `Deleted support ticket ${ticket.ticketId}`,
    });
  });
}

/** The columns of "Export To Excel": the table's, plus what a spreadsheet reader needs. */
function ticketExportColumns(actor: Actor): SheetColumn<Ticket>[] {
  return [
    { header: 'Ticket ID', width: 22, value: (t) => t.ticketId },
    { header: 'Name', width: 30, value: (t) => t.name },
    { header: 'Type', width: 12, value: (t) => ticketRequestLabels[t.ticketType] },
    { header: 'Attachment', width: 12, value: (t) => attachmentKind(t.type) },
    { header: 'Message', width: 60, value: (t) => t.message },
    { header: 'Status', width: 10, value: (t) => t.status },
    ...(actor.isSuperAdmin
      ? [{ header: 'Organization', width: 28, value: (t: Ticket) => t.organizationName }]
      : []),
    { header: 'Raised By', width: 24, value: (t) => t.createdByName },
    { header: 'Created Date', width: 20, value: (t) => new Date(t.createdAt) },
    { header: 'Updated Date', width: 20, value: (t) => new Date(t.updatedDate) },
  ];
}

/** The ticket list as filtered, for a spreadsheet: its columns and its rows, read in batches. */
export function exportTickets(deps: Deps, actor: Actor, query: Omit<TicketFilter, 'organizationId'>) {
  return {
    columns: ticketExportColumns(actor),
    rows: repo.iterateTickets(deps.db, ticketFilter(actor, query)),
  };
}
