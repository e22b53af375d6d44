import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readBackupFile, summarize, type DatabaseSummary } from './backup-archive.js';
import { openDatabase } from './client.js';
import { lockDataDir } from './data-dir-lock.js';

export class RestoreRefusedError extends Error {
  constructor(dataDir: string, entries: string[]) {
    super(
      `The data folder ${dataDir} is not empty (it holds ${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''}). ` +
        'npm run restore only fills an empty or new folder: set DATA_DIR to one, then start the portal on it.',
    );
    this.name = 'RestoreRefusedError';
  }
}

/**
 * `npm run restore -- FILE`: the backup in `file` becomes the embedded database of `dataDir`, which
 * must be empty or absent. PGlite loads the dump and runs PostgreSQL's recovery (the dump is what a
 * crash at its instant would have left), and closing it leaves a clean folder. The folder is locked
 * meanwhile; if anything fails, it is left as empty as it was.
 */
export async function restoreBackup(dataDir: string, file: string): Promise<DatabaseSummary> {
  // The file is read and checked before the folder is touched.
  const tar = await readBackupFile(file);
  const entries = existsSync(dataDir) ? readdirSync(dataDir) : [];
  if (entries.length > 0) throw new RestoreRefusedError(dataDir, entries);
  const unlock = lockDataDir(dataDir);
  const pgDir = join(dataDir, 'pg');
  try {
    // A portal that started on the folder between the check and the lock has made its database.
    if (existsSync(pgDir)) throw new RestoreRefusedError(dataDir, readdirSync(dataDir));
    try {
      const database = await openDatabase({ dataDir: pgDir, fromDump: tar });
      try {
        return await summarize(database);
      } finally {
        await database.close();
      }
    } catch (error) {
      rmSync(pgDir, { recursive: true, force: true });
      throw error;
    }
  } finally {
    unlock();
  }
}
