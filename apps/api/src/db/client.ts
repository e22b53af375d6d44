import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { openEmbeddedClient } from './embedded-client.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The common type of both drivers; a transaction is one too. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

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
        db = drizzlePg(client, { schema }) as unknown as Db;
        onClient.set(client, db);
      }
      return await db.transaction(work, config);
    } finally {
      client.release();
    }
  };
}

/**
 * PostgreSQL when a URL (or a ready `pool`, which the fault tests wrap) is given, otherwise embedded
 * PGlite in `dataDir` (or in memory). The database closes the pool it is given.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | 'memory://';
  pool?: pg.Pool;
}): Promise<Database> {
  if (options.databaseUrl || options.pool) {
    const pool = options.pool ?? new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A connection that PostgreSQL ends (restart, failover, pg_terminate_backend) emits 'error'; with no
    // listener Node throws it and the whole process dies. The statement that was running fails on its
    // own (the request answers 500) and the pool discards the dead client (test/faults.test.ts).
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    db.transaction = releasingTransaction(pool);
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(drizzlePg(pool, { schema }), { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (dataDir !== 'memory://') mkdirSync(dataDir, { recursive: true });
  // pg_trgm backs the substring search indexes (migration 0001), as on PostgreSQL.
  const client = await openEmbeddedClient(dataDir === 'memory://' ? undefined : dataDir, {
    extensions: { pg_trgm },
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    close: () => client.close(),
  };
}
