import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { seed } from '../src/db/seed.js';
import { loadEnv } from '../src/env.js';
import { createPasswordHasher } from '../src/lib/passwords.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, enrolTwoFactor, signIn, TEST_HASH_COST } from './harness.js';
import { createPostgresDatabase, usePostgres } from './test-database.js';
import { multipartBody, PDF_BYTES, PNG_BYTES } from './upload-fixtures.js';

/**
 * Tickets, profile images and company details live in the database, so they survive a restart.
 * PGlite keeps them in a folder on disk; PostgreSQL in a database that outlives the app.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function durableLocation(): Promise<{ dataDir?: string; databaseUrl?: string }> {
  if (!usePostgres) {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-restart-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    return { dataDir };
  }
  const scratch = await createPostgresDatabase();
  cleanups.push(scratch.drop);
  return { databaseUrl: scratch.url };
}

/** What a portal start does: open, migrate, seed (idempotent), build. */
async function startPortal(location: { dataDir?: string; databaseUrl?: string }) {
  const database: Database = await openDatabase(location);
  await database.migrate();
  await seed(database.db, createPasswordHasher(TEST_HASH_COST), {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-1234',
  });
  const app = await buildApp({ env, database, hashCost: TEST_HASH_COST, logger: false });
  await app.ready();
  return {
    app,
    stop: async () => {
      await app.close();
      await database.close();
    },
  };
}

describe('restart', () => {
  it('keeps support tickets with attachments, profile images and company details', async () => {
    const location = await durableLocation();

    const first = await startPortal(location);
    const root = await signIn(first.app);
    // A new portal's super administrator sets up a second factor before anything else.
    const { secret } = await enrolTwoFactor(root);
    const { payload, headers } = multipartBody(
      { message: 'Survives a restart', type: 'callback' },
      { name: 'proof.pdf', data: PDF_BYTES },
    );
    const ticket = (await root.post('/api/auth/support/tickets', payload, { headers })).json().data;
    expect(ticket.file).toBeTruthy();
    const image = multipartBody({}, { name: 'me.png', data: PNG_BYTES });
    const profile = (
      await root.put('/api/auth/profile/image', image.payload, { headers: image.headers })
    ).json().data;
    expect(profile.profileImage).toBeTruthy();
    const company = {
      organizationId: profile.organizationId,
      name: 'Platform Pvt Ltd',
      email: 'ops@platform.example',
      address: '1 Residency Road',
      country: 'India',
      state: 'Karnataka',
      city: 'Bengaluru',
      pincode: '560025',
      industryType: 'Software',
      foundedIn: 2015,
      websiteUrl: 'https://platform.example',
      aboutUs: 'Interview credits.',
    };
    expect((await root.post('/api/auth/companies', company)).statusCode).toBe(200);
    await first.stop();

    const second = await startPortal(location);
    cleanups.push(second.stop);
    const again = await signIn(second.app, ADMIN_EMAIL, ADMIN_PASSWORD, secret);

    const list = (await again.get('/api/auth/support/tickets')).json();
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({
      ticketId: ticket.ticketId,
      message: 'Survives a restart',
      ticketType: 'callback',
      name: 'proof.pdf',
      type: 'application/pdf',
      status: 'Active',
    });
    const attachment = await again.get(ticket.file);
    expect(attachment.statusCode).toBe(200);
    expect(attachment.rawPayload.equals(PDF_BYTES)).toBe(true);

    const me = (await again.get('/api/auth/profile')).json().data;
    expect(me.profileImage).toBe(profile.profileImage);
    const picture = await again.get(me.profileImage);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.rawPayload.equals(PNG_BYTES)).toBe(true);

    const saved = (await again.get(`/api/auth/companies/${profile.organizationId}`)).json().data;
    expect(saved).toMatchObject({ ...company, linkedinUrl: null });
    // Two starts on a folder on disk, each creating or checking the job tables: slow on a busy machine.
  }, 90_000);
});
