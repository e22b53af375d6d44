import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@portal/shared';
import { migrationsFolder, openDatabase } from '../../db/client.js';
import { storedFileChunks, storedFiles } from '../../db/schema/index.js';
import { createTestApp, type TestContext } from '../../../test/harness.js';
import { createTenant, type TestTenant } from '../../../test/fixtures.js';
import { createPostgresDatabase, usePostgres } from '../../../test/test-database.js';
import { multipartBody, PDF_BYTES, pdfOfSize } from '../../../test/upload-fixtures.js';
import { systemActor } from '../../core/actor.js';
import { withDb } from '../../core/deps.js';
import { deleteStoredFile } from './files.repo.js';
import { FILE_CHUNK_BYTES } from './files.service.js';
import { storeFile, withStoredFile } from './index.js';

let ctx: TestContext;
let acme: TestTenant;
const system = systemActor('test');

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createTenant(ctx, 'Acme', { subscribed: true });
});
afterAll(() => ctx.close());

async function chunkCount(fileId?: string) {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(storedFileChunks)
    .where(fileId ? eq(storedFileChunks.fileId, fileId) : undefined);
  return row!.n;
}

function raiseWith(data: Buffer) {
  const { payload, headers } = multipartBody({ message: 'See attached' }, { name: 'scan.pdf', data });
  return acme.session.post('/api/auth/support/tickets', payload, { headers });
}

describe('files stored in pieces', () => {
  it('round-trips a file of several pieces byte-identical, with its headers', async () => {
    // Random bytes: pieces read back out of order would not match.
    const data = Buffer.concat([PDF_BYTES, randomBytes(2 * FILE_CHUNK_BYTES + 1234)]);
    const res = await raiseWith(data);
    expect(res.statusCode).toBe(201);
    const fileId = String(res.json().data.file).split('/').pop()!;
    expect(await chunkCount(fileId)).toBe(3);

    const file = await acme.session.get(`/api/files/${fileId}`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(data)).toBe(true);
    expect(file.headers['content-length']).toBe(String(data.length));
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain('attachment; filename="scan.pdf"');
    expect(file.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'; sandbox",
    );
  });

  it('serves the largest upload whole', async () => {
    const data = pdfOfSize(MAX_UPLOAD_BYTES);
    const res = await raiseWith(data);
    expect(res.statusCode).toBe(201);
    const file = await acme.session.get(res.json().data.file);
    expect(file.rawPayload.equals(data)).toBe(true);
  });

  it('leaves no piece behind when the upload fails', async () => {
    const lost = {
      organizationId: acme.organizationId,
      ownerUserId: acme.userId,
      fileName: 'lost.pdf',
      mimeType: 'application/pdf',
    };
    const before = await chunkCount();
    // Storing succeeded, then a later step of the same transaction failed.
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await storeFile(withDb(ctx.app.deps, tx), system, { ...lost, data: pdfOfSize(3 * FILE_CHUNK_BYTES) });
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    // Stored before the caller's transaction, which then failed.
    const filesBefore = await ctx.database.db.select({ id: storedFiles.id }).from(storedFiles);
    await expect(
      withStoredFile(ctx.app.deps, system, {
        file: { ...lost, data: pdfOfSize(3 * FILE_CHUNK_BYTES) },
        link: async (fileId) => {
          expect(await chunkCount(fileId)).toBe(3);
          throw new Error('the ticket failed');
        },
      }),
    ).rejects.toThrow('the ticket failed');
    expect(await ctx.database.db.select({ id: storedFiles.id }).from(storedFiles)).toEqual(filesBefore);
    // Refused over the size limit, while being read.
    expect((await raiseWith(pdfOfSize(MAX_UPLOAD_BYTES + 1))).statusCode).toBe(413);
    expect(await chunkCount()).toBe(before);
  });

  it('deletes the pieces with their file', async () => {
    const res = await raiseWith(pdfOfSize(FILE_CHUNK_BYTES + 1));
    const fileId = String(res.json().data.file).split('/').pop()!;
    expect(await chunkCount(fileId)).toBe(2);
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`update support_tickets set file_id = null where file_id = ${fileId}`);
      await deleteStoredFile(tx, fileId);
    });
    expect(await chunkCount(fileId)).toBe(0);
    expect((await acme.session.get(`/api/files/${fileId}`)).statusCode).toBe(404);
  });
});

describe('migration 0010', () => {
  it('cuts files stored whole before it into the same pieces', async () => {
    const scratch = usePostgres ? await createPostgresDatabase() : null;
    const database = await openDatabase(scratch ? { databaseUrl: scratch.url } : { dataDir: 'memory://' });
    const older = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
    try {
      cpSync(migrationsFolder, older, { recursive: true });
      const journalPath = join(older, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((e) => e.tag < '0010');
      writeFileSync(journalPath, JSON.stringify(journal));
      await database.migrate(older);

      const {
        rows: [org],
      } = await database.db.execute<{ id: string }>(
        sql`insert into organizations (name) values ('Old files') returning id`,
      );
      const files = [randomBytes(2 * FILE_CHUNK_BYTES + 7), randomBytes(FILE_CHUNK_BYTES), Buffer.alloc(0)];
      const ids: string[] = [];
      for (const data of files) {
        // Raw statements: the schema in code no longer has the column.
        const {
          rows: [row],
        } = await database.db.execute<{ id: string }>(
          sql`insert into stored_files (organization_id, file_name, mime_type, size_bytes, sha256, data)
              values (${org!.id}, 'old.pdf', 'application/pdf', ${data.length}, '', ${data}) returning id`,
        );
        ids.push(row!.id);
      }

      await database.migrate();
      for (const [i, data] of files.entries()) {
        const pieces = await database.db
          .select({ seq: storedFileChunks.seq, data: storedFileChunks.data })
          .from(storedFileChunks)
          .where(eq(storedFileChunks.fileId, ids[i]!))
          .orderBy(asc(storedFileChunks.seq));
        expect(pieces.map((p) => p.seq)).toEqual([
          ...Array(Math.ceil(data.length / FILE_CHUNK_BYTES)).keys(),
        ]);
        expect(Buffer.concat(pieces.map((p) => p.data)).equals(data)).toBe(true);
      }
      expect(await database.db.select().from(storedFiles)).toHaveLength(3);
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(older, { recursive: true, force: true });
    }
  });
});
