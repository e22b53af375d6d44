/**
 * A users import's commit cut by kill -9 (issue 34, docs/decisions/036): the portal is killed while
 * its job creates 10,000 users; after the restart the import finishes, and each row made its user and
 * its invitation once. Prints how many rows were done at the kill and what the restart left.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ROLES } from '@portal/shared';
import { buildApp } from '../src/app.js';
import type { Actor } from '../src/core/actor.js';
import { findUserDto } from '../src/core/identity/users.repo.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { loadEnv } from '../src/env.js';
import { commitImport, dryRunImport } from '../src/modules/imports/imports.service.js';
import { csvOf, HEADER } from '../src/modules/imports/test-files.js';
import { killPortals, startPortal } from './portal-process.js';
import { createOrganizationDirect, LONG_MODE, TEST_HASH_COST, TEST_JOBS } from './harness.js';
import {
  createPostgresDatabase,
  prepareTestDatabase,
  TEST_SESSION_SECRET,
  usePostgres,
} from './test-database.js';

const ROWS = 10_000;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

afterEach(() => killPortals());

/** The seeded super administrator as a service's actor: the import is theirs. */
async function superAdministrator(database: Database): Promise<Actor> {
  const [row] = rowsOf<{ id: string }>(
    await database.db.execute(
      sql`select u.id from users u join roles r on r.id = u.role_id where r.name = ${SYSTEM_ROLES.superAdmin} limit 1`,
    ),
  );
  const user = (await findUserDto(database.db, row!.id))!;
  return {
    kind: 'user',
    userId: user.id,
    organizationId: user.organizationId,
    roleId: user.roleId,
    roleName: user.role.name,
    isSuperAdmin: true,
    permissions: user.role.permissions,
    sessionId: '',
    familyId: '',
    twoFactor: { enabled: true, required: true },
  };
}

/** The import's rows by result, and the users and invitations its file's addresses have. */
async function tally(database: Database, importId: string) {
  const results = rowsOf<{ result: string | null; n: number }>(
    await database.db.execute(
      sql`select result, count(*)::int as n from import_rows where import_id = ${importId} group by result`,
    ),
  );
  const byResult = Object.fromEntries(results.map((r) => [r.result ?? 'pending', r.n]));
  const [made] = rowsOf<{ users: number; invitations: number; twice: number }>(
    await database.db.execute(sql`
      select
        (select count(*)::int from users where email like '%@crash.test') as users,
        (select count(*)::int from email_outbox where to_address like '%@crash.test') as invitations,
        (select count(*)::int from (
          select to_address from email_outbox where to_address like '%@crash.test'
          group by to_address having count(*) > 1) twice) as twice`),
  );
  const [record] = rowsOf<{ status: string }>(
    await database.db.execute(sql`select status from imports where id = ${importId}`),
  );
  return {
    status: record!.status,
    done: byResult.created ?? 0,
    pending: byResult.pending ?? 0,
    failed: byResult.failed ?? 0,
    ...made!,
  };
}

async function waitFor(check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// On PostgreSQL, where the test watches the commit while the portal runs and kills it mid-way (an
// embedded data folder has one writer, so it could only be read between runs).
describe.skipIf(!LONG_MODE || !usePostgres)('a portal killed in the middle of an import’s commit', () => {
  it('finishes it after the restart, each of 10,000 rows once', async () => {
    const { url, drop } = await createPostgresDatabase();
    const database = await openDatabase({ databaseUrl: url });
    try {
      await prepareTestDatabase(database);
      const app = await buildApp({
        env: loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SESSION_SECRET: TEST_SESSION_SECRET }),
        database,
        hashCost: TEST_HASH_COST,
        logger: false,
        config: { jobs: { ...TEST_JOBS, work: false } },
      });
      await app.ready();
      const organizationId = await createOrganizationDirect({ app, database } as never, 'Crash Co');
      const actor = await superAdministrator(database);
      const rows = Array.from({ length: ROWS }, (_, i) => [
        `crash${i}`,
        `crash${i}@crash.test`,
        '9876543210',
        'admin',
      ]);
      const dry = await dryRunImport(app.deps, actor, {
        kind: 'users',
        upload: { fieldName: 'file', fileName: 'crash.csv', data: csvOf([HEADER, ...rows]) },
        fields: { organizationId },
      });
      expect(dry.counts).toMatchObject({ toCreate: ROWS, errors: 0 });
      await commitImport(app.deps, actor, { kind: 'users', id: dry.id });
      await app.close();

      const settings = { DATABASE_URL: url, SESSION_SECRET: TEST_SESSION_SECRET };
      const portal = await startPortal(settings);
      expect(portal.output()).toContain('is running at');
      // Killed once a few batches are in, mid-way through the ones after.
      await waitFor(async () => (await tally(database, dry.id)).done >= 500, 300_000);
      portal.child.kill('SIGKILL');
      await portal.exited;
      const atKill = await tally(database, dry.id);

      // The killed try stays active until its job expires; pg-boss's maintenance then hands it back
      // and the commit goes on with the rows still without a result.
      const again = await startPortal(settings);
      expect(again.output()).toContain('is running at');
      await waitFor(async () => (await tally(database, dry.id)).status === 'done', 600_000);
      const result = await tally(database, dry.id);
      console.log(
        `kill -9 after ${atKill.done} of ${ROWS} rows were committed (${atKill.invitations} invitations): after the restart ${result.status}, ${result.done} created, ${result.pending} pending, ${result.failed} failed; ${result.users} users, ${result.invitations} invitations, ${result.twice} addresses invited twice`,
      );
      expect(atKill.done).toBeLessThan(ROWS);
      expect(atKill.users).toBe(atKill.done);
      expect(atKill.invitations).toBe(atKill.done);
      expect(result).toEqual({
        status: 'done',
        done: ROWS,
        pending: 0,
        failed: 0,
        users: ROWS,
        invitations: ROWS,
        twice: 0,
      });
    } finally {
      await killPortals();
      await database.close();
      await drop();
    }
  }, 900_000);
});
