import { join, resolve } from 'node:path';
import type { Env } from '../env.js';
import { serveBackups } from './backup-channel.js';
import { openDatabase, type Database } from './client.js';
import { lockDataDir } from './data-dir-lock.js';

export interface ConfiguredDatabase {
  database: Database;
  /** The embedded database's folder (DATA_DIR), whether or not it is in use. */
  dataDir: string;
  /** Gives the data folder back (nothing on PostgreSQL); call once the database is closed. */
  unlock(): void;
}

/**
 * The database the configuration names, as a process of the portal opens it (the server, and the
 * operator's commands): PostgreSQL at DATABASE_URL, else the embedded one in DATA_DIR, locked to this
 * process first (throws DataDirLockedError while another holds it). Without its database a process
 * can do nothing: if the embedded one stops, the process says so and exits, so a supervisor restarts it.
 * The embedded database serves `npm run backup` while it is open (db/backup-channel.ts).
 */
export async function openConfiguredDatabase(env: Env): Promise<ConfiguredDatabase> {
  const dataDir = resolve(env.DATA_DIR);
  const unlock = env.DATABASE_URL ? () => {} : lockDataDir(dataDir);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: join(dataDir, 'pg'),
    onEmbeddedExit: (error) => {
      process.stderr.write(`The embedded database stopped: ${error.message}\n`);
      unlock();
      process.exit(1);
    },
  });
  if (!database.dumpDataDir) return { database, dataDir, unlock };
  try {
    const channel = await serveBackups(dataDir, database.dumpDataDir, (message) =>
      process.stderr.write(`${message}\n`),
    );
    if (!channel) return { database, dataDir, unlock };
    const close = async () => {
      await channel.close();
      await database.close();
    };
    return { database: { ...database, close }, dataDir, unlock };
  } catch (error) {
    await database.close();
    unlock();
    throw error;
  }
}
