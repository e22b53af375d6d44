import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { TestProject } from 'vitest/node';
import { openDatabase, type Database } from '../src/db/client.js';
import { postgresUrlOf, prepareTestDatabase, usePostgres, withPostgresAdmin } from './test-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated and seeded template every test database starts from. */
    template: { kind: 'pglite'; dumpFile: string } | { kind: 'postgres'; database: string };
  }
}

async function migrateAndSeed(database: Database) {
  await prepareTestDatabase(database);
  await database.close();
}

/**
 * Migrates and seeds one database for the whole run; each test file's database is a copy of it (a
 * PGlite dump loaded in memory, or a PostgreSQL `create database … template`), so no file pays for
 * initdb, the migrations and the seed. The teardown removes the template.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (usePostgres) {
    const name = `portal_template_${randomBytes(6).toString('hex')}`;
    await withPostgresAdmin((admin) => admin.query(`create database ${name}`));
    await migrateAndSeed(await openDatabase({ databaseUrl: postgresUrlOf(name) }));
    project.provide('template', { kind: 'postgres', database: name });
    return () => withPostgresAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
  }

  const folder = mkdtempSync(join(tmpdir(), 'portal-template-'));
  try {
    const dataDir = join(folder, 'data');
    await migrateAndSeed(await openDatabase({ dataDir }));
    const pglite = await PGlite.create(dataDir, { extensions: { pg_trgm } });
    const dump = await pglite.dumpDataDir('none');
    await pglite.close();
    const dumpFile = join(folder, 'template.tar');
    writeFileSync(dumpFile, new Uint8Array(await dump.arrayBuffer()));
    rmSync(dataDir, { recursive: true, force: true });
    project.provide('template', { kind: 'pglite', dumpFile });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return async () => rmSync(folder, { recursive: true, force: true });
}
