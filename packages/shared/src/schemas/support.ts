import { z } from 'zod';
import { TICKET_PAGE_SIZES } from '../constants.js';
import { messages } from '../messages.js';

/**
 * Support tickets (docs/product.md, "Support tickets"): persisted per organization.
 * 'Submit Feedback' raises a ticket of type feedback, 'Request a Call Back' one of type callback.
 */
export const TICKET_TYPES = ['feedback', 'callback'] as const;
export type TicketType = (typeof TICKET_TYPES)[number];
export const TICKET_STATUSES = ['Active', 'Inactive'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_MESSAGE_MAX = 5000;

/** Attachment types (the form's hint), checked on the server by content, not by name. */
export const ATTACHMENT_MIME_TYPES = [
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'image/png',
  'image/jpeg',
] as const;
export const ATTACHMENT_ACCEPT = '.pdf,.docx,.doc,.png,.jpg,.jpeg';
/** A ticket without attachment shows this type. */
export const TICKET_TEXT_TYPE = 'text';

/** What a ticket asks for, as the list, the ticket view and the export name it. */
export const ticketRequestLabels: Record<TicketType, string> = {
  feedback: 'Feedback',
  callback: 'Call back',
};

const ATTACHMENT_KINDS: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/msword': 'Word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'image/png': 'Image',
  'image/jpeg': 'Image',
};

/**
 * The kind of a ticket's attachment, from its `type` (the MIME type, or 'text' without one): 'PDF',
 * 'Word', 'Image' or 'None', one word in one case, where the list mixed 'PDF', 'DOCX' and 'text'.
 */
export function attachmentKind(type: string): string {
  return ATTACHMENT_KINDS[type] ?? (type === TICKET_TEXT_TYPE ? 'None' : 'Other');
}

/** The fields of POST /api/auth/support/tickets (JSON, or the text parts of a multipart form). */
export const createTicketBodySchema = z.object({
  message: z
    .string({ error: messages.support.messageRequired })
    .trim()
    .min(1, messages.support.messageRequired)
    .max(TICKET_MESSAGE_MAX, messages.support.messageTooLong),
  type: z.enum(TICKET_TYPES).default('feedback'),
});
export type CreateTicketBody = z.input<typeof createTicketBodySchema>;

export const ticketStatusBodySchema = z.object({ status: z.enum(TICKET_STATUSES) });

const ticketPageSize = z.coerce
  .number()
  .int()
  .refine((n) => (TICKET_PAGE_SIZES as readonly number[]).includes(n), messages.support.pageSizeInvalid);

export const ticketListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: ticketPageSize.default(10),
  search: z.string().trim().max(200).optional(),
  status: z.enum(TICKET_STATUSES).optional(),
});
export type TicketListQuery = z.input<typeof ticketListQuerySchema>;

export const ticketExportQuerySchema = z.object({
  format: z.enum(['xlsx', 'csv']).default('xlsx'),
  search: z.string().trim().max(200).optional(),
  status: z.enum(TICKET_STATUSES).optional(),
});

/** A ticket as the API answers it. `name` and `type` are columns of the tickets list. */
export const ticketSchema = z.object({
  id: z.string(),
  /** `TICKET-` plus a timestamp. */
  ticketId: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  ticketType: z.enum(TICKET_TYPES),
  /** The attachment's file name, or 'No file attached'. */
  name: z.string(),
  /** The attachment's MIME type, or 'text'. */
  type: z.string(),
  message: z.string(),
  status: z.enum(TICKET_STATUSES),
  /** Download address of the attachment, null without one. */
  file: z.string().nullable(),
  createdBy: z.string(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedDate: z.string(),
});
export type Ticket = z.infer<typeof ticketSchema>;
