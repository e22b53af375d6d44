import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from './client.js';

/**
 * A backup file: PGlite's dumpDataDir tar of the embedded database, gzipped (docs/decisions/030).
 * It holds everything the portal keeps: rows, uploaded files (stored in the database) and the secrets
 * it generated (app_settings). A SESSION_SECRET given in the environment is not in it.
 */
export class BackupFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFileError';
  }
}

/**
 * Writes `tar` gzipped to `file`, readable by its owner only (it holds password hashes and the
 * portal's secrets), through a temporary name: a crash leaves no half-written file under `file`.
 * Answers the file's size in bytes.
 */
export async function writeBackupFile(file: string, tar: Uint8Array): Promise<number> {
  const compressed = await promisify(gzip)(tar);
  const partial = `${file}.partial`;
  let fd: number;
  try {
    fd = openSync(partial, 'w', 0o600);
  } catch (error) {
    throw new BackupFileError(`Cannot write ${file}: ${(error as Error).message}`);
  }
  try {
    writeSync(fd, compressed);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(partial, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(partial, file);
  return compressed.length;
}

/** A tar's first header carries "ustar" at offset 257 (POSIX), as PGlite's tar writer puts it. */
function isTar(bytes: Uint8Array): boolean {
  return bytes.length >= 512 && Buffer.from(bytes.subarray(257, 262)).toString('latin1') === 'ustar';
}

/** The tar inside a backup file; a BackupFileError when the file is not one. */
export async function readBackupFile(file: string): Promise<Uint8Array> {
  let compressed: Buffer;
  try {
    compressed = readFileSync(file);
  } catch (error) {
    throw new BackupFileError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let tar: Buffer;
  try {
    tar = await promisify(gunzip)(compressed);
  } catch {
    throw new BackupFileError(`${file} is not a backup of the portal (not gzip, or cut short).`);
  }
  if (!isTar(tar)) throw new BackupFileError(`${file} is not a backup of the portal (no tar inside).`);
  return tar;
}

/** What an operator checks a backup or a restore by. */
export interface DatabaseSummary {
  migrations: number;
  organizations: number;
  users: number;
  storedFiles: number;
  /** False when the portal took SESSION_SECRET from its environment: it must go with the backup. */
  sessionSecretStored: boolean;
}

export async function summarize(database: Database): Promise<DatabaseSummary> {
  const { rows } = (await database.db.execute(sql`
    select
      (select count(*)::int from drizzle.__drizzle_migrations) as migrations,
      (select count(*)::int from organizations) as organizations,
      (select count(*)::int from users) as users,
      (select count(*)::int from stored_files) as "storedFiles",
      exists (select 1 from app_settings where key = 'session_secret') as "sessionSecretStored"`)) as unknown as {
    rows: DatabaseSummary[];
  };
  return rows[0]!;
}

/**
 * Opens the backup in `file` in memory, as a restore would (PostgreSQL's recovery included), and
 * answers what it holds: a backup that was never opened is only a hope.
 */
export async function verifyBackupFile(file: string): Promise<DatabaseSummary> {
  const database = await openDatabase({ fromDump: await readBackupFile(file) });
  try {
    return await summarize(database);
  } finally {
    await database.close();
  }
}
