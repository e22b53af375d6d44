import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BackupChannelError, requestDump } from './backup-channel.js';
import {
  verifyBackupFile,
  writeBackupFile,
  BackupFileError,
  type DatabaseSummary,
} from './backup-archive.js';
import { openDatabase, type DataDirDump } from './client.js';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

export interface BackupReport {
  file: string;
  bytes: number;
  /** Who took the dump: the running portal, or this process on the stopped portal's folder. */
  from: 'portal' | 'folder';
  /** How long taking the dump held the database (the portal's requests waited at most that long). */
  dumpMs: number;
  summary: DatabaseSummary;
}

/** The portal holds the folder from its start, and serves the channel once its database is open. */
const CHANNEL_WAIT_MS = 10_000;

async function dumpFromPortal(dataDir: string): Promise<DataDirDump> {
  const deadline = Date.now() + CHANNEL_WAIT_MS;
  for (;;) {
    try {
      return await requestDump(dataDir);
    } catch (error) {
      const notYet = error instanceof BackupChannelError && error.reason === 'unanswered';
      if (!notYet || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** With no portal running, this process takes the folder (so none starts meanwhile) and dumps it. */
async function dumpStoppedFolder(dataDir: string, unlock: () => void): Promise<DataDirDump> {
  try {
    const database = await openDatabase({ dataDir: join(dataDir, 'pg') });
    try {
      return await database.dumpDataDir!();
    } finally {
      await database.close();
    }
  } finally {
    unlock();
  }
}

/**
 * `npm run backup`: a consistent copy of the embedded database in `dataDir`, from the portal running
 * on it (over its backup channel) or from the folder when none runs, written to `file` and then
 * opened in memory to prove it restores (docs/decisions/030). `onDumped` hears when the copy is in
 * hand: what follows concerns the file only.
 */
export async function takeBackup(
  dataDir: string,
  file: string,
  onDumped: (from: BackupReport['from'], dumpMs: number) => void = () => {},
): Promise<BackupReport> {
  if (!existsSync(join(dataDir, 'pg', 'PG_VERSION'))) {
    throw new BackupFileError(`There is no embedded database in ${dataDir} (DATA_DIR).`);
  }
  let unlock: (() => void) | undefined;
  try {
    unlock = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
  }
  const dump = unlock ? await dumpStoppedFolder(dataDir, unlock) : await dumpFromPortal(dataDir);
  onDumped(unlock ? 'folder' : 'portal', dump.ms);
  const bytes = await writeBackupFile(file, dump.tar);
  const summary = await verifyBackupFile(file);
  return { file, bytes, from: unlock ? 'folder' : 'portal', dumpMs: dump.ms, summary };
}
