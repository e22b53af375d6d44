import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { gstinCheckCharacter } from '@portal/shared';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { seed } from '../src/db/seed.js';
import { createPasswordHasher, type HashCost } from '../src/lib/passwords.js';
import { saveSellerTaxProfile } from '../src/modules/invoices/invoices.repo.js';
import { encryptSecret } from '../src/modules/two-factor/totp.js';
import { deriveTwoFactorKeys } from '../src/core/secrets.js';
import { installJobSchema } from '../src/core/jobs.js';
import { appSettings, users, userTotp } from '../src/db/schema/index.js';
import { eq } from 'drizzle-orm';

/** Cheap Argon2id parameters so suites stay fast; production uses DEFAULT_HASH_COST. */
export const TEST_HASH_COST: HashCost = { memoryCost: 1024, timeCost: 1 };
/** The super administrator the template is seeded with. */
export const ADMIN_EMAIL = 'root@portal.test';
export const ADMIN_PASSWORD = 'Root-Passw0rd!';
/**
 * Every test app's SESSION_SECRET, also stored as the database's own secret, so an app built without
 * one (as server.ts builds it) reads the same two-factor keys.
 */
export const TEST_SESSION_SECRET = 'test-secret-test-secret-test-secret-1234';
/** The super administrator's authenticator secret: super administrators must sign in with a code. */
export const ADMIN_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/**
 * Migrates and seeds a new test database as the template is: the platform, its super administrator
 * and the seller's tax profile (so payments can issue invoices).
 */
export async function prepareTestDatabase(database: Database): Promise<void> {
  await database.migrate();
  await installJobSchema(database.db);
  await seed(database.db, createPasswordHasher(TEST_HASH_COST), {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
  await saveSellerTaxProfile(database.db, TEST_SELLER_PROFILE, null);
  await database.db.insert(appSettings).values({ key: 'session_secret', value: TEST_SESSION_SECRET });
  const [admin] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN_EMAIL));
  const { secretKey } = deriveTwoFactorKeys(TEST_SESSION_SECRET);
  await database.db.insert(userTotp).values({
    userId: admin!.id,
    secretCiphertext: encryptSecret(secretKey, ADMIN_TOTP_SECRET),
    confirmedAt: new Date(),
  });
}

/** The seller's tax profile the template carries, so payments can issue invoices (Karnataka, 29). */
export const TEST_SELLER_PAN = 'AABCI1234K';
export const TEST_SELLER_GSTIN = `29${TEST_SELLER_PAN}1Z${gstinCheckCharacter(`29${TEST_SELLER_PAN}1Z`)}`;
export const TEST_SELLER_PROFILE = {
  legalName: 'Interview Credits Portal Private Limited',
  address: '12 MG Road\nBengaluru 560001',
  stateCode: '29',
  gstin: TEST_SELLER_GSTIN,
  pan: TEST_SELLER_PAN,
  sac: '998314',
  invoicePrefix: 'IC',
  creditNotePrefix: 'CN',
  signatory: 'Asha Rao',
} as const;

/** `TEST_DATABASE=postgres` runs the suites on PostgreSQL (TEST_DATABASE_URL), one database per file. */
export const usePostgres = process.env.TEST_DATABASE === 'postgres';
const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The URL of another database on TEST_DATABASE_URL's server. */
export function postgresUrlOf(database: string): string {
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `work` on a connection to TEST_DATABASE_URL's own database (to create and drop others). */
export async function withPostgresAdmin(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** A PostgreSQL database of its own, empty or a copy of `template`; `drop` removes it. */
export async function createPostgresDatabase(
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await withPostgresAdmin((admin) =>
    admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`),
  );
  return {
    url: postgresUrlOf(name),
    drop: () => withPostgresAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`)),
  };
}

/**
 * A database of the test file's own, migrated and seeded: a copy of the run's template
 * (test/global-setup.ts). `drop` removes a PostgreSQL copy after the database is closed.
 */
export async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const template = inject('template');
  if (template.kind === 'postgres') {
    const copy = await createPostgresDatabase(template.database);
    return { database: await openDatabase({ databaseUrl: copy.url }), drop: copy.drop };
  }
  const fromDump = readFileSync(template.dumpFile);
  return { database: await openDatabase({ fromDump }), drop: async () => {} };
}
