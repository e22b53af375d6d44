import { MAX_UPLOAD_BYTES, messages, type TicketType } from '@portal/shared';

const TYPE_LABELS: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/msword': 'DOC',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
};

/** A short label for a ticket's `type` (an attachment's MIME type, or 'text'). */
export function typeLabel(type: string): string {
  return TYPE_LABELS[type] ?? type;
}

export const requestLabel: Record<TicketType, string> = {
  feedback: 'Feedback',
  callback: 'Call back',
};

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
}

const ALLOWED_EXTENSIONS = ['.pdf', '.docx', '.doc', '.png', '.jpg', '.jpeg'];

/** A quick check before sending; the server judges the file by its content, not its name. */
export function attachmentProblem(file: File): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return messages.support.fileTooLarge;
  const name = file.name.toLowerCase();
  if (!ALLOWED_EXTENSIONS.some((ext) => name.endsWith(ext))) return messages.support.fileTypeRejected;
  return null;
}
