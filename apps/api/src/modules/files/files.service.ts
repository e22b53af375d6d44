import { createHash } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { can, tenantScope, type Actor, type SystemActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import * as repo from './files.repo.js';

/**
 * The largest piece of a file's bytes one statement carries. The embedded database runs one
 * statement at a time: a 5 MB file in one statement held it for 150–250 ms, a piece of 256 KiB holds
 * it for a few (docs/decisions/022). Migration 0010 cut the files stored before it the same way.
 */
export const FILE_CHUNK_BYTES = 256 * 1024;

export interface FileToStore {
  organizationId: string;
  ownerUserId: string;
  fileName: string;
  mimeType: string;
  data: Buffer;
}

/** A file's details, then its bytes in pieces of FILE_CHUNK_BYTES, one statement each. */
async function writeFile(db: Db, file: FileToStore, onRow: (id: string) => void): Promise<string> {
  const id = await repo.insertStoredFile(db, {
    organizationId: file.organizationId,
    ownerUserId: file.ownerUserId,
    fileName: file.fileName,
    mimeType: file.mimeType,
    sizeBytes: file.data.length,
    sha256: createHash('sha256').update(file.data).digest('hex'),
  });
  onRow(id);
  for (let seq = 0; seq * FILE_CHUNK_BYTES < file.data.length; seq++) {
    const start = seq * FILE_CHUNK_BYTES;
    await repo.insertFileChunk(db, id, seq, file.data.subarray(start, start + FILE_CHUNK_BYTES));
  }
  return id;
}

/**
 * Keeps a checked upload in the database, so every API process can serve it; returns its id. In the
 * caller's transaction (`withDb(deps, tx)`), a failure leaves none of its pieces behind. On the
 * embedded database that transaction holds the one session until it commits: `withStoredFile` lets
 * other requests in.
 */
export async function storeFile(deps: Deps, _actor: Actor | SystemActor, file: FileToStore): Promise<string> {
  return writeFile(deps.db, file, () => {});
}

/**
 * The embedded database runs one statement at a time, first come first served: four uploads writing
 * pieces at once put four pieces ahead of every other request's statement, one upload at a time puts
 * one. So there, files are written in turn (the database could not write them faster side by side).
 */
const writers = new WeakMap<Db, LimitFunction>();
function inTurn(db: Db): LimitFunction {
  let limit = writers.get(db);
  if (!limit) writers.set(db, (limit = pLimit(1)));
  return limit;
}

/**
 * Stores `file` before the caller's transaction, then runs `link(fileId)`, the transaction that refers
 * to it. Its pieces are statements of their own, outside any transaction, so on the embedded database
 * other requests take turns with them (docs/decisions/022), one file at a time. If storing or `link`
 * fails, the file and its pieces are deleted.
 */
export async function withStoredFile<T>(
  deps: Deps,
  _actor: Actor | SystemActor,
  input: { file: FileToStore; link: (fileId: string) => Promise<T> },
): Promise<T> {
  const { db } = deps;
  let id: string | undefined;
  const write = () => writeFile(db, input.file, (written) => (id = written));
  try {
    return await input.link(await (deps.dbKind === 'pglite' ? inTurn(db)(write) : write()));
  } catch (error) {
    // The caller hears of the first failure; a file left by a failed delete is referred to by nothing.
    if (id) await repo.deleteStoredFile(db, id).catch(() => undefined);
    throw error;
  }
}

/** Deletes a stored file and its pieces; in the caller's transaction when handed `withDb(deps, tx)`. */
export async function deleteStoredFile(deps: Deps, _actor: Actor, input: { id: string }): Promise<void> {
  await repo.deleteStoredFile(deps.db, input.id);
}

/**
 * A file's bytes, read one piece per statement so other requests take turns with a large download.
 * A file whose pieces do not add up to its size (deleted while read) answers 404.
 */
async function readFileData(db: Db, fileId: string, sizeBytes: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let read = 0;
  while (read < sizeBytes) {
    const piece = await repo.readFileChunk(db, fileId, pieces.length);
    if (!piece) throw notFound();
    pieces.push(piece);
    read += piece.length;
  }
  if (read !== sizeBytes) throw notFound();
  return Buffer.concat(pieces, read);
}

/**
 * A file the caller may read: one of their own organization (any organization for super_admin).
 * A ticket attachment also needs Support READ. Anything else answers 404, as if it did not exist.
 */
export async function fileForDownload(deps: Deps, actor: Actor, input: { id: string }) {
  const file = await repo.findStoredFile(deps.db, input.id);
  const scope = tenantScope(actor);
  if (!file || (scope && file.organizationId !== scope)) throw notFound();
  if (file.isTicketAttachment && !can(actor, 'support', 'READ')) throw notFound();
  return { ...file, data: await readFileData(deps.db, file.id, file.sizeBytes) };
}

/**
 * An upload is stored before the transaction that refers to it (docs/decisions/022); a process that
 * died in between leaves a file nothing refers to. After a day it is surely not still being linked.
 */
export const KEEP_UNREFERENCED_FILES_MS = 24 * 3_600_000;

/** Housekeeping: deletes uploads a day old that nothing refers to. */
export function pruneUnreferencedFiles(
  deps: Deps,
  _actor: SystemActor,
  input: { now: Date },
): Promise<number> {
  return repo.deleteUnreferencedFiles(deps.db, new Date(input.now.getTime() - KEEP_UNREFERENCED_FILES_MS));
}
