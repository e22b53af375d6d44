import { MAX_UPLOAD_BYTES, messages } from '@portal/shared';

const ALLOWED_EXTENSIONS = ['.pdf', '.docx', '.doc', '.png', '.jpg', '.jpeg'];

/** A quick check before sending; the server judges the file by its content, not its name. */
export function attachmentProblem(file: File): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return messages.support.fileTooLarge;
  const name = file.name.toLowerCase();
  if (!ALLOWED_EXTENSIONS.some((ext) => name.endsWith(ext))) return messages.support.fileTypeRejected;
  return null;
}
