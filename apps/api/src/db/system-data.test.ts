import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_PERMISSIONS, FEATURES, SCOPES, SYSTEM_ROLES, type FeatureKey } from '@portal/shared';
import { STRONG_PASSWORD } from '../../test/harness.js';
import { createPostgresDatabase, TEST_HASH_COST, usePostgres } from '../../test/test-database.js';
import { migrationsFolder, openDatabase, type Database } from './client.js';
import { createPasswordHasher } from '../lib/passwords.js';
import { seed } from './seed.js';
import { features, organizations, rolePermissions, roles, users } from './schema/index.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function emptyDatabase(): Promise<Database> {
  const scratch = usePostgres ? await createPostgresDatabase() : null;
  const database = await openDatabase(scratch ? { databaseUrl: scratch.url } : { dataDir: 'memory://' });
  cleanup.push(async () => {
    await database.close();
    await scratch?.drop();
  });
  return database;
}

/** The grants of a system role, as feature id → scopes. */
async function grantsOf(database: Database, name: string): Promise<Record<string, string[]>> {
  const rows = await database.db
    .select({ featureId: rolePermissions.featureId, scopes: rolePermissions.scopes })
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
    .where(and(eq(roles.name, name), isNull(roles.organizationId)));
  return Object.fromEntries(rows.map((r) => [r.featureId, [...r.scopes].sort()]));
}

const expectedAdmin = Object.fromEntries(
  Object.entries(ADMIN_ROLE_PERMISSIONS).map(([key, scopes]) => [
    FEATURES[key as FeatureKey].id,
    [...scopes].sort(),
  ]),
);
const expectedSuper = Object.fromEntries(Object.values(FEATURES).map((f) => [f.id, [...SCOPES].sort()]));

describe('the features and system roles the migrations write', () => {
  it('match packages/shared: add a migration when FEATURES or ADMIN_ROLE_PERMISSIONS change', async () => {
    const database = await emptyDatabase();
    await database.migrate();
    const rows = await database.db.select().from(features).orderBy(features.sortOrder);
    expect(rows.map(({ id, name, description }) => ({ id, name, description }))).toEqual(
      Object.values(FEATURES).map(({ id, name, description }) => ({ id, name, description })),
    );
    expect(await grantsOf(database, SYSTEM_ROLES.admin)).toEqual(expectedAdmin);
    expect(await grantsOf(database, SYSTEM_ROLES.superAdmin)).toEqual(expectedSuper);
  });

  it('reach a database made by an older migration set and seeded by the old seed, with nothing twice', async () => {
    // The migrations up to 0005, as a database made before system data moved into migrations had them.
    const older = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
    cleanup.push(async () => rmSync(older, { recursive: true, force: true }));
    cpSync(migrationsFolder, older, { recursive: true });
    const journalPath = join(older, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag < '0006');
    writeFileSync(journalPath, JSON.stringify(journal));

    const database = await emptyDatabase();
    await database.migrate(older);
    // What the old seed wrote, with an admin role from before Support DELETE was granted.
    await database.db
      .insert(features)
      .values(Object.values(FEATURES).map((f, i) => ({ ...f, sortOrder: i })));
    // Raw statements: the schema in code has columns (require_two_factor) the older tables lack.
    const {
      rows: [admin],
    } = await database.db.execute<{ id: string }>(
      sql`insert into roles (name, is_system) values (${SYSTEM_ROLES.admin}, true) returning id`,
    );
    await database.db.execute(
      sql`insert into roles (name, is_system) values (${SYSTEM_ROLES.superAdmin}, true)`,
    );
    await database.db
      .insert(rolePermissions)
      .values({ roleId: admin!.id, featureId: FEATURES.support.id, scopes: ['READ', 'CREATE'] });

    await database.migrate();
    expect(await grantsOf(database, SYSTEM_ROLES.admin)).toEqual(expectedAdmin);
    expect(await grantsOf(database, SYSTEM_ROLES.superAdmin)).toEqual(expectedSuper);
    const systemRoles = await database.db.select().from(roles).where(isNull(roles.organizationId));
    expect(systemRoles.map((r) => r.name).sort()).toEqual([SYSTEM_ROLES.admin, SYSTEM_ROLES.superAdmin]);
  });
});

describe('the first start', () => {
  it('seeds one platform and one super administrator when several processes seed at once', async () => {
    const database = await emptyDatabase();
    await database.migrate();
    // Each seed on its own connection, as separate processes would (PGlite serves one at a time). The
    // hash is made once beforehand, so that the seeds' transactions overlap instead of taking turns.
    const real = createPasswordHasher(TEST_HASH_COST);
    const hash = await real.hash(STRONG_PASSWORD);
    const hasher = { ...real, hash: () => Promise.resolve(hash) };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => seed(database.db, hasher, { password: STRONG_PASSWORD })),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const platforms = await database.db
      .select()
      .from(organizations)
      .where(eq(organizations.isPlatform, true));
    expect(platforms).toHaveLength(1);
    const [superRole] = await database.db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.name, SYSTEM_ROLES.superAdmin), isNull(roles.organizationId)));
    expect(await database.db.select().from(users).where(eq(users.roleId, superRole!.id))).toHaveLength(1);
  });
});
