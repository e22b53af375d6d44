import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { storedFiles, supportTickets } from '../../db/schema/index.js';

export type NewStoredFile = Omit<typeof storedFiles.$inferInsert, 'id' | 'createdAt'>;

export async function insertStoredFile(db: Db, values: NewStoredFile): Promise<string> {
  const [row] = await db.insert(storedFiles).values(values).returning({ id: storedFiles.id });
  return row!.id;
}

/** A file with its bytes, and whether it is a ticket attachment (those need Support READ). */
export async function findStoredFile(db: Db, id: string) {
  const [row] = await db
    .select({
      id: storedFiles.id,
      organizationId: storedFiles.organizationId,
      fileName: storedFiles.fileName,
      mimeType: storedFiles.mimeType,
      sizeBytes: storedFiles.sizeBytes,
      sha256: storedFiles.sha256,
      data: storedFiles.data,
      ticketId: supportTickets.id,
    })
    .from(storedFiles)
    .leftJoin(supportTickets, eq(supportTickets.fileId, storedFiles.id))
    .where(eq(storedFiles.id, id))
    .limit(1);
  return row ? { ...row, isTicketAttachment: row.ticketId !== null } : null;
}

export async function deleteStoredFile(db: Db, id: string): Promise<void> {
  await db.delete(storedFiles).where(eq(storedFiles.id, id));
}
