import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { drizzle, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { migrate as migrateWith } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The database handle, on either database (both through node-postgres); a transaction is one too. */
export type Db = PgDatabase<NodePgQueryResultHKT, Schema>;

/** The pool's connections, open and idle, and the requests waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** Hears a statement's time in seconds, and whether the database refused it or the connection failed. */
export type StatementListener = (seconds: number, failed: boolean) => void;

/** The embedded database's folder as PGlite's dumpDataDir writes it, and how long taking it held the database. */
export interface DataDirDump {
  tar: Uint8Array;
  ms: number;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded database only: a consistent copy of it, taken while it serves (npm run backup). */
  dumpDataDir?: () => Promise<DataDirDump>;
  poolStats(): PoolStats;
  /** Times every statement on the pool's connections for `listener`; answers how to stop. */
  onStatement(listener: StatementListener): () => void;
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

/**
 * Wraps a connection's `query` to time the statements whose answer is a promise (every statement
 * drizzle and pg-boss send), for the listeners there are; with none it only checks the set's size.
 */
function timeStatements(client: pg.PoolClient, listeners: Set<StatementListener>) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    if (listeners.size === 0) return query(...args);
    const start = performance.now();
    const answer = query(...args) as Partial<PromiseLike<unknown>> | undefined;
    // A callback or a streamed statement (a cursor) answers no promise: it goes untimed.
    if (typeof answer?.then !== 'function') return answer;
    const report = (failed: boolean) => {
      const seconds = (performance.now() - start) / 1_000;
      for (const listener of listeners) listener(seconds, failed);
    };
    answer.then(
      () => report(false),
      () => report(true),
    );
    return answer;
  }) as typeof client.query;
}

/**
 * drizzle's migrator takes no lock: processes starting at once on one PostgreSQL each read the same
 * last migration and apply the next ones again, and all but one fail ("column already exists",
 * test/upgrade.test.ts). An advisory lock, held on the connection that migrates, lets them in one at
 * a time; each after the first finds nothing left to apply. The embedded database has one process.
 */
async function migrateOneAtATime(pool: pg.Pool, from: string): Promise<void> {
  const lock = "hashtext('interview-credits-portal migrations')";
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(`select pg_advisory_lock(${lock})`);
    try {
      await migrateWith(drizzle(client, { schema }), { migrationsFolder: from });
    } finally {
      // A lost connection has let go of the lock already; the pool then drops it.
      await client.query(`select pg_advisory_unlock(${lock})`).catch((error: Error) => (broken = error));
    }
  } finally {
    client.release(broken);
  }
}

function databaseOn(
  pool: pg.Pool,
  kind: Database['kind'],
  stop: () => Promise<void>,
  dumpDataDir?: () => Promise<DataDirDump>,
): Database {
  // A connection that the server ends (restart, failover, pg_terminate_backend) emits 'error'; with no
  // listener Node throws it and the whole process dies. The statement that was running fails on its
  // own (the request answers 500) and the pool discards the dead client (test/faults.test.ts).
  pool.on('error', () => {});
  const statementListeners = new Set<StatementListener>();
  pool.on('connect', (client) => {
    client.on('error', () => {});
    timeStatements(client, statementListeners);
  });
  pool.query = keepingConnectionOnSqlErrors(pool);
  const db = drizzle(pool, { schema }) as unknown as Db;
  db.transaction = releasingTransaction(pool);
  return {
    db,
    kind,
    ...(dumpDataDir ? { dumpDataDir } : {}),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    }),
    onStatement(listener) {
      statementListeners.add(listener);
      return () => statementListeners.delete(listener);
    },
    migrate: (from = migrationsFolder) =>
      kind === 'postgres'
        ? migrateOneAtATime(pool, from)
        : migrateWith(drizzle(pool, { schema }), { migrationsFolder: from }),
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
  // Each request has a port of its own, so two backups at once each get their own answer.
  const dumpDataDir = () =>
    new Promise<DataDirDump>((resolve, reject) => {
      const { port1, port2 } = new MessageChannel();
      const onExit = () => reject(new Error('the embedded database stopped during the dump'));
      worker.once('exit', onExit);
      port1.once('message', (answer: DataDirDump | { error: string }) => {
        worker.off('exit', onExit);
        port1.close();
        if ('error' in answer) reject(new Error(answer.error));
        else resolve(answer);
      });
      worker.postMessage({ type: 'dump', reply: port2 }, [port2]);
    });
  const stop = async () => {
    stopping = true;
    const closed = new Promise((resolve) => worker.once('message', resolve));
    worker.postMessage({ type: 'close' });
    await closed;
    await worker.terminate();
    rmSync(socketDir, { recursive: true, force: true });
  };
  return { pool, stop, dumpDataDir };
}

/**
 * PostgreSQL when a URL (or a ready `pool`, which the fault tests wrap) is given, otherwise the
 * embedded PGlite in `dataDir` (or in memory). Both are reached through the pg driver and the same
 * code; the database closes the pool it is given. An embedded database can start `fromDump` (PGlite's
 * `dumpDataDir`) instead of empty: in memory (the tests start every file from one migrated template),
 * or in a data folder without a database yet (npm run restore; PGlite refuses a folder that has one).
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
  const embedded = await startEmbedded(dataDir, options.fromDump, options.onEmbeddedExit);
  return databaseOn(embedded.pool, 'pglite', embedded.stop, embedded.dumpDataDir);
}
