import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { drizzle, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { migrate as migrateWith } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The database handle, on either database (both through node-postgres); a transaction is one too. */
export type Db = PgDatabase<NodePgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the migrations not yet applied; `from` another folder of them (tests of an upgrade). */
  migrate(from?: string): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * `db.transaction` on a pool, with the pooled client always given back. drizzle-orm 0.45 runs BEGIN
 * before the try/finally that releases the client (drizzle-team/drizzle-orm#6023, #6241): a connection
 * cut at BEGIN leaked its client for good, and ten of them hung every request (test/faults.test.ts).
 * Here the client is checked out by us, drizzle runs the transaction on it, and `finally` releases it
 * (pg-pool drops it then if the connection is dead). One drizzle instance per physical connection.
 */
function releasingTransaction(pool: pg.Pool): Db['transaction'] {
  const onClient = new WeakMap<pg.PoolClient, Db>();
  return async (work, config) => {
    const client = await pool.connect();
    try {
      let db = onClient.get(client);
      if (!db) {
        db = drizzle(client, { schema }) as unknown as Db;
        onClient.set(client, db);
      }
      return await db.transaction(work, config);
    } finally {
      client.release();
    }
  };
}

/**
 * `pool.query` that keeps its connection when the statement failed in the database (an error with an
 * SQLSTATE `code`): pg-pool drops the connection on any error, and the embedded database serves one
 * connection, whose named statements would be lost with it. A connection that failed drops as before.
 */
function keepingConnectionOnSqlErrors(pool: pg.Pool): pg.Pool['query'] {
  return (async (config: string | pg.QueryConfig, values?: unknown[]) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      return await client.query(config, values);
    } catch (error) {
      if (!(error as { code?: unknown }).code) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }) as pg.Pool['query'];
}

function databaseOn(pool: pg.Pool, kind: Database['kind'], stop: () => Promise<void>): Database {
  // A connection that the server ends (restart, failover, pg_terminate_backend) emits 'error'; with no
  // listener Node throws it and the whole process dies. The statement that was running fails on its
  // own (the request answers 500) and the pool discards the dead client (test/faults.test.ts).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  pool.query = keepingConnectionOnSqlErrors(pool);
  const db = drizzle(pool, { schema }) as unknown as Db;
  db.transaction = releasingTransaction(pool);
  return {
    db,
    kind,
    migrate: (from = migrationsFolder) => migrateWith(drizzle(pool, { schema }), { migrationsFolder: from }),
    close: async () => {
      await pool.end();
      await stop();
    },
  };
}

/**
 * The embedded database (PGlite) on a thread of its own, served on a Unix socket in a private
 * temporary folder (mode 0700: no other local user can connect). The pool keeps one connection:
 * PGlite is one session, and one connection keeps its transactions and named statements together.
 */
async function startEmbedded(
  dataDir: string | undefined,
  dump: Uint8Array | undefined,
  onExit?: (error: Error) => void,
) {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const socketDir = mkdtempSync(join(tmpdir(), 'portal-db-'));
  const worker = new Worker(new URL('./embedded-server.mjs', import.meta.url), {
    workerData: { dataDir, socketPath: join(socketDir, '.s.PGSQL.5432'), dump },
  });
  let stopping = false;
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the embedded database stopped at start (exit ${code})`)));
  });
  worker.on('exit', (code) => {
    if (!stopping) onExit?.(new Error(`the embedded database stopped (exit ${code})`));
  });
  worker.on('error', (error) => {
    if (!stopping) onExit?.(error);
  });
  // The one connection is kept while idle; when it is replaced (it broke), the new one starts clean:
  // PGlite is one session for every connection, so it still holds the old connection's transaction
  // and prepared statements, which the driver would prepare again by name ("already exists").
  const pool = new pg.Pool({
    host: socketDir,
    port: 5432,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    idleTimeoutMillis: 0,
  });
  pool.on('connect', (client) => {
    client.query('rollback; deallocate all').catch(() => undefined);
  });
  const stop = async () => {
    stopping = true;
    const closed = new Promise((resolve) => worker.once('message', resolve));
    worker.postMessage({ type: 'close' });
    await closed;
    await worker.terminate();
    rmSync(socketDir, { recursive: true, force: true });
  };
  return { pool, stop };
}

/**
 * PostgreSQL when a URL (or a ready `pool`, which the fault tests wrap) is given, otherwise the
 * embedded PGlite in `dataDir` (or in memory). Both are reached through the pg driver and the same
 * code; the database closes the pool it is given. An embedded database in memory can start `fromDump`
 * (PGlite's `dumpDataDir`) instead of empty: the tests start every file from one migrated template.
 * `onEmbeddedExit` hears of an embedded database that stopped on its own (the server exits then).
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | 'memory://';
  fromDump?: Uint8Array;
  pool?: pg.Pool;
  onEmbeddedExit?: (error: Error) => void;
}): Promise<Database> {
  if (options.databaseUrl || options.pool) {
    const pool = options.pool ?? new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return databaseOn(pool, 'postgres', async () => {});
  }
  const dataDir = options.dataDir === 'memory://' ? undefined : options.dataDir;
  if (options.fromDump && dataDir) throw new Error('a dump starts an embedded database in memory only');
  const embedded = await startEmbedded(dataDir, options.fromDump, options.onEmbeddedExit);
  return databaseOn(embedded.pool, 'pglite', embedded.stop);
}
