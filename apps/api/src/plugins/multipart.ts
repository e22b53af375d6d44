import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { MAX_UPLOAD_BYTES, messages } from '@portal/shared';
import { AppError, badRequest } from '../lib/errors.js';
import type { Upload } from '../lib/upload.js';
import { refuseUnstorableText } from './text-guard.js';

/**
 * Lets the routes of the calling module read multipart forms. Registered per module, not globally:
 * the plugin hooks the start and the end of every request of the context it is registered in (to
 * clean up saved files), and only the profile image and support ticket routes take uploads.
 */
export async function acceptUploads(app: FastifyInstance) {
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20 } });
}

export interface MultipartForm {
  fields: Record<string, string>;
  file: Upload | null;
}

/** Without path, control characters or quotes; never empty. */
export function cleanFileName(name: string): string {
  const base = name.toWellFormed().split(/[/\\]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(-200);
  return clean || 'file';
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

/**
 * Reads a multipart form: its text fields and at most one file, in any order. A file over the
 * plugin's `fileSize` limit answers 413 with `tooLarge`; a second file, too many fields, text the
 * database cannot store and a form that cannot be parsed (no boundary, cut short) answer 400.
 */
export async function readMultipartForm(request: FastifyRequest, tooLarge: string): Promise<MultipartForm> {
  const fields: Record<string, string> = {};
  let file: Upload | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.file.truncated) throw new AppError(413, tooLarge, 'PAYLOAD_TOO_LARGE');
        // A browser sends an empty, nameless part for a file input left empty.
        if (!part.filename && data.length === 0) continue;
        file = { fieldName: part.fieldname, fileName: cleanFileName(part.filename), data };
      } else if (typeof part.value === 'string') {
        refuseUnstorableText({ [part.fieldname]: part.value }, part.fieldname);
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = errorCode(error);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, tooLarge, 'PAYLOAD_TOO_LARGE');
    if (code === 'FST_FILES_LIMIT') throw badRequest(messages.http.oneFileOnly);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw badRequest(messages.http.tooManyFields);
    // Anything else raised while reading the parts is busboy's parser refusing the form.
    request.log.info({ err: error }, 'malformed multipart form');
    throw badRequest(messages.http.malformedUpload);
  }
  return { fields, file };
}
