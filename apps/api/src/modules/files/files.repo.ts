import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { storedFileChunks, storedFiles, supportTickets, users } from '../../db/schema/index.js';

export type NewStoredFile = Omit<typeof storedFiles.$inferInsert, 'id' | 'createdAt'>;

/** A file's details; its bytes follow in chunks (`insertFileChunk`). */
export async function insertStoredFile(db: Db, values: NewStoredFile): Promise<string> {
  const [row] = await db.insert(storedFiles).values(values).returning({ id: storedFiles.id });
  return row!.id;
}

/** Piece `seq` (from 0) of a file's bytes, one statement of its own (docs/decisions/022). */
export async function insertFileChunk(db: Db, fileId: string, seq: number, data: Buffer): Promise<void> {
  await db.insert(storedFileChunks).values({ fileId, seq, data });
}

/**
 * A file's details, and whether it is a ticket attachment (those need Support READ). Its bytes are
 * read piece by piece (`readFileChunk`), once the caller may have them.
 */
export async function findStoredFile(db: Db, id: string) {
  const [row] = await db
    .select({
      id: storedFiles.id,
      organizationId: storedFiles.organizationId,
      fileName: storedFiles.fileName,
      mimeType: storedFiles.mimeType,
      sizeBytes: storedFiles.sizeBytes,
      sha256: storedFiles.sha256,
      ticketId: supportTickets.id,
    })
    .from(storedFiles)
    .leftJoin(supportTickets, eq(supportTickets.fileId, storedFiles.id))
    .where(eq(storedFiles.id, id))
    .limit(1);
  return row ? { ...row, isTicketAttachment: row.ticketId !== null } : null;
}

/** Piece `seq` of a file's bytes; null if there is none. */
export async function readFileChunk(db: Db, fileId: string, seq: number): Promise<Buffer | null> {
  const [row] = await db
    .select({ data: storedFileChunks.data })
    .from(storedFileChunks)
    .where(and(eq(storedFileChunks.fileId, fileId), eq(storedFileChunks.seq, seq)));
  return row?.data ?? null;
}

/** Deletes a file; its chunks go with it (on delete cascade). */
export async function deleteStoredFile(db: Db, id: string): Promise<void> {
  await db.delete(storedFiles).where(eq(storedFiles.id, id));
}

/** Deletes files stored before `before` that no ticket or profile refers to; returns how many went. */
export async function deleteUnreferencedFiles(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(storedFiles)
    .where(
      and(
        lt(storedFiles.createdAt, before),
        sql`not exists (select 1 from ${supportTickets} t where t.file_id = ${storedFiles.id})`,
        sql`not exists (select 1 from ${users} u where u.profile_image_file_id = ${storedFiles.id})`,
      ),
    )
    .returning({ id: storedFiles.id });
  return rows.length;
}
