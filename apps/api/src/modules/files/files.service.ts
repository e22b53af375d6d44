import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { can, tenantScope, type AuthContext } from '../../plugins/access.js';
import { findStoredFile, insertStoredFile } from './files.repo.js';

export interface FileToStore {
  organizationId: string;
  ownerUserId: string;
  fileName: string;
  mimeType: string;
  data: Buffer;
}

/** Keeps a checked upload in the database, so every API process can serve it; returns its id. */
export async function storeFile(db: Db, file: FileToStore): Promise<string> {
  return insertStoredFile(db, {
    organizationId: file.organizationId,
    ownerUserId: file.ownerUserId,
    fileName: file.fileName,
    mimeType: file.mimeType,
    sizeBytes: file.data.length,
    sha256: createHash('sha256').update(file.data).digest('hex'),
    data: file.data,
  });
}

/**
 * A file the caller may read: one of their own organization (any organization for super_admin).
 * A ticket attachment also needs Support READ. Anything else answers 404, as if it did not exist.
 */
export async function fileForDownload(db: Db, auth: AuthContext, id: string) {
  const file = await findStoredFile(db, id);
  const scope = tenantScope(auth);
  if (!file || (scope && file.organizationId !== scope)) throw notFound();
  if (file.isTicketAttachment && !can(auth, 'support', 'READ')) throw notFound();
  return file;
}
