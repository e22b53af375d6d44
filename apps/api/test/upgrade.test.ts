/**
 * Upgrades (issue 33 item 6): a data folder and a PostgreSQL database made by the previous release
 * (test/previous-release.ts), migrated and filled through its own API, start on this code, which
 * applies the new migrations once, keeps every row, signs people in with the second factors they set
 * up before, and renders the old invoices. On PostgreSQL three processes start at once on the old
 * database, and the migrations are applied once.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { computeAmounts, IDEMPOTENCY_HEADER, TOTP_PERIOD_SECONDS } from '@portal/shared';
import { migrationsFolder, openDatabase, type Database } from '../src/db/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, STRONG_PASSWORD, totpCode } from './harness.js';
import { freePort, HttpClient, type HttpAnswer } from './http-client.js';
import { killPortals, startPortal, type PortalProcess } from './portal-process.js';
import {
  checkOutPreviousRelease,
  PREVIOUS_RELEASE,
  previousReleaseInHistory,
  type PreviousRelease,
} from './previous-release.js';
import { createPostgresDatabase, TEST_SELLER_PROFILE, usePostgres } from './test-database.js';
import { multipartBody, PNG_BYTES } from './upload-fixtures.js';

/** Rows the portal writes on its own schedule (a slot may pass between two readings): not compared. */
const CLOCK_DRIVEN_TABLES = new Set(['scheduled_runs']);
const NEW_PROCESSES = 3;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let release: PreviousRelease;
beforeAll(() => {
  release = checkOutPreviousRelease();
});
afterAll(() => release?.remove());

const folders: string[] = [];
const databases: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killPortals();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  for (const drop of databases.splice(0)) await drop();
});

/** The migrations table as drizzle's migrator fills it from a folder of migrations, in order. */
function migrationsOf(folder: string) {
  return readMigrationFiles({ migrationsFolder: folder }).map((m) => ({
    hash: m.hash,
    createdAt: m.folderMillis,
  }));
}

/** What the database holds: the migrations applied, in order, and each table's number of rows. */
async function readState(database: Database) {
  const migrations = rowsOf<{ hash: string; created_at: string }>(
    await database.db.execute(sql`select hash, created_at from drizzle.__drizzle_migrations order by id`),
  ).map((m) => ({ hash: m.hash, createdAt: Number(m.created_at) }));
  const tables = rowsOf<{ name: string }>(
    await database.db.execute(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    ),
  )
    .map((t) => t.name)
    .filter((name) => !CLOCK_DRIVEN_TABLES.has(name));
  const counts = rowsOf<{ name: string; n: number }>(
    await database.db.execute(
      sql.raw(tables.map((t) => `select '${t}' as name, count(*)::int as n from "${t}"`).join(' union all ')),
    ),
  );
  return { migrations, counts: Object.fromEntries(counts.map((c) => [c.name, c.n])) };
}

/** Every table of the old release keeps its rows; a table the new migrations made starts empty. */
function expectRowsKept(after: Record<string, number>, before: Record<string, number>) {
  const added = Object.keys(after).filter((name) => !(name in before));
  expect(Object.fromEntries(added.map((name) => [name, after[name]]))).toEqual(
    Object.fromEntries(added.map((name) => [name, 0])),
  );
  expect(Object.fromEntries(Object.keys(before).map((name) => [name, after[name]]))).toEqual(before);
}

async function stateAt(where: { dataDir: string } | { databaseUrl: string }) {
  const database = await openDatabase(
    'dataDir' in where ? { dataDir: join(where.dataDir, 'pg') } : { databaseUrl: where.databaseUrl },
  );
  try {
    return await readState(database);
  } finally {
    await database.close();
  }
}

async function until<T>(
  check: () => Promise<T | undefined> | T | undefined,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expectStatus(answer: HttpAnswer, status: number) {
  expect(answer.status, answer.body.toString('utf8').slice(0, 500)).toBe(status);
}

function expectRunning(portal: PortalProcess) {
  expect(portal.output(), portal.output()).toContain('is running at');
}

async function stop(portal: PortalProcess) {
  portal.child.kill('SIGTERM');
  expect(await portal.exited, portal.output()).toBe(0);
}

/** The super administrator's authenticator: each code from a later step than the last one used. */
class Authenticator {
  private lastStep = 0;
  constructor(readonly secret: string) {}

  /**
   * The current step's code, or the next step's (accepted a step early) when the current one is used;
   * when that one is used too, it waits for the next step to begin.
   */
  async nextCode(): Promise<string> {
    const period = TOTP_PERIOD_SECONDS * 1000;
    const step = Math.max(this.lastStep + 1, Math.floor(Date.now() / period));
    const wait = (step - 1) * period - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.lastStep = step;
    return totpCode(this.secret, step * period);
  }
}

interface Filled {
  authenticator: Authenticator;
  recoveryCodes: string[];
  admin: { email: string; organizationId: string };
  invoice: { id: string; number: string };
  attachment: { url: string; sha256: string };
}

/** Signs the super administrator in with a password and a second factor (a code or a recovery code). */
async function signInSuperAdmin(base: string, code: string): Promise<HttpClient> {
  const client = new HttpClient(base);
  const password = await client.post('/api/auth/auth-session/login', {
    identifier: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
  expectStatus(password, 200);
  const challenge = password.json<{ data: { challenge: string } }>().data.challenge;
  expectStatus(await client.post('/api/auth/auth-session/two-factor', { challenge, code }), 200);
  return client;
}

async function signInAdmin(base: string, email: string): Promise<HttpClient> {
  const client = new HttpClient(base);
  expectStatus(
    await client.post('/api/auth/auth-session/login', { identifier: email, password: STRONG_PASSWORD }),
    200,
  );
  return client;
}

/**
 * Fills a portal of the previous release as its operator would, through its API: the super
 * administrator sets up the second factor at the first sign-in and the seller's tax details, onboards
 * an organization with a manual payment (its tax invoice), the organization's admin sets a password
 * from the invitation mail and raises two tickets, one with an attachment.
 */
async function fill(base: string, mailDir: string): Promise<Filled> {
  const enrolling = new HttpClient(base);
  expectStatus(
    await enrolling.post('/api/auth/auth-session/login', {
      identifier: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    }),
    200,
  );
  const setup = await enrolling.post('/api/auth/two-factor/setup');
  expectStatus(setup, 200);
  const authenticator = new Authenticator(setup.json<{ data: { secret: string } }>().data.secret);
  const enabled = await enrolling.post('/api/auth/two-factor/enable', {
    code: await authenticator.nextCode(),
  });
  expectStatus(enabled, 200);
  const recoveryCodes = enabled.json<{ data: { recoveryCodes: string[] } }>().data.recoveryCodes;

  // The enrolling session is not promoted: the super administrator signs in again, with a recovery
  // code (the authenticator's next code is kept for the upgraded portal, which then need not wait).
  const root = await signInSuperAdmin(base, recoveryCodes.shift()!);
  expectStatus(await root.send('PUT', '/api/auth/tax-profile', TEST_SELLER_PROFILE), 200);

  const tag = randomUUID().slice(0, 8);
  const organizationId = randomUUID();
  const email = `admin.${tag}@upgrade.test`;
  const credits = 100;
  const amounts = computeAmounts({ credits, pricePerCreditPaise: 10_000, taxRateBp: 1_800 });
  const onboarded = await root.post(
    '/api/auth/onboarding',
    {
      user: {
        username: `upgrade.${tag}`,
        email,
        mobileNo: '9876543210',
        client: `Upgrade ${tag}`,
        organizationId,
      },
      subscription: {
        totalInterviewCredits: credits,
        interviewCreditsPricePaise: 10_000,
        taxRateBp: 1_800,
        subTotalPaise: amounts.subTotalPaise,
        totalAmountPaise: amounts.totalAmountPaise,
        taxAmountPaise: amounts.taxAmountPaise,
        grandTotalAmountPaise: amounts.grandTotalPaise,
        demoTrials: 2,
      },
      payment: {
        transactionId: `UTR-${tag}`,
        paymentMethod: 'bank_transfer',
        paymentDate: '2026-11-02',
        remarks: '',
      },
    },
    { [IDEMPOTENCY_HEADER]: randomUUID() },
  );
  expectStatus(onboarded, 201);
  const invoices = await root.get(`/api/auth/invoices?organizationId=${organizationId}`);
  expectStatus(invoices, 200);
  const [invoice] = invoices.json<{ data: { id: string; number: string }[] }>().data;
  expect(invoice).toBeDefined();

  // The invitation's link, as the admin receives it (SMTP_URL=file://: each mail a JSON file).
  const token = await until(
    () => {
      const mails = existsSync(mailDir) ? readdirSync(mailDir).filter((f) => f.endsWith('.json')) : [];
      for (const file of mails) {
        const mail = JSON.parse(readFileSync(join(mailDir, file), 'utf8')) as { to: string; text: string };
        const link = /reset-password\?token=([\w-]+)/.exec(mail.text);
        if (mail.to === email && link) return link[1]!;
      }
      return undefined;
    },
    30_000,
    'the invitation mail',
  );
  const visitor = new HttpClient(base);
  expectStatus(await visitor.post('/api/auth/reset-password', { token, password: STRONG_PASSWORD }), 200);

  const admin = await signInAdmin(base, email);
  expectStatus(
    await admin.post('/api/auth/support/tickets', { message: 'Before the upgrade', type: 'feedback' }),
    201,
  );
  const form = multipartBody({ message: 'With a screenshot' }, { name: 'screen.png', data: PNG_BYTES });
  const withFile = await admin.post('/api/auth/support/tickets', form.payload, form.headers);
  expectStatus(withFile, 201);
  return {
    authenticator,
    recoveryCodes,
    admin: { email, organizationId },
    invoice: invoice!,
    attachment: { url: withFile.json<{ data: { file: string } }>().data.file, sha256: sha256(PNG_BYTES) },
  };
}

async function pdfText(pdf: Buffer): Promise<string> {
  const proxy = await getDocumentProxy(new Uint8Array(pdf));
  try {
    return (await extractText(proxy, { mergePages: true })).text.replace(/\s+/g, ' ');
  } finally {
    await proxy.destroy();
  }
}

/**
 * On the upgraded portal: the super administrator signs in with `code` (their authenticator's secret
 * and recovery codes were sealed by the old release), the admin with their password; the admin's
 * invoice PDF renders, their tickets and attachment are there.
 */
async function expectSignInsAndData(base: string, filled: Filled, code: string) {
  const root = await signInSuperAdmin(base, code);
  const me = await root.get('/api/auth/auth-session/me');
  expectStatus(me, 200);
  expect(me.json<{ data: { email: string } }>().data.email).toBe(ADMIN_EMAIL);

  const admin = await signInAdmin(base, filled.admin.email);
  const pdf = await admin.get(`/api/auth/invoices/${filled.invoice.id}/pdf`);
  expectStatus(pdf, 200);
  expect(pdf.contentType).toContain('application/pdf');
  expect(await pdfText(pdf.body)).toContain(filled.invoice.number);
  const tickets = await admin.get('/api/auth/support/tickets');
  expectStatus(tickets, 200);
  expect(tickets.json<{ meta: { total: number } }>().meta.total).toBe(2);
  const attachment = await admin.get(filled.attachment.url);
  expectStatus(attachment, 200);
  expect(sha256(attachment.body)).toBe(filled.attachment.sha256);
}

/** A portal's settings for the test: its own sign-in, mail written to `mailDir`, and where its data is. */
function settingsOf(where: Record<string, string>, mailDir: string, port: number) {
  return {
    ...where,
    PORT: String(port),
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SMTP_URL: `file://${mailDir}`,
  };
}

/**
 * Runs the previous release on `where` (a data folder or a database) until it has been filled, stops
 * it, and answers what it left: its migrations all applied, some of this code's still pending.
 */
async function leftByPreviousRelease(
  where: { DATA_DIR: string } | { DATABASE_URL: string },
  mailDir: string,
) {
  const port = await freePort();
  const began = Date.now();
  const old = await startPortal(settingsOf(where, mailDir, port), { checkout: release.checkout });
  expectRunning(old);
  const startMs = Date.now() - began;
  const filled = await fill(`http://127.0.0.1:${port}`, mailDir);
  await stop(old);
  const state = await stateAt(
    'DATA_DIR' in where ? { dataDir: where.DATA_DIR } : { databaseUrl: where.DATABASE_URL },
  );
  expect(state.migrations).toEqual(migrationsOf(release.migrationsFolder));
  // The platform and the onboarded organization, the invoice of its payment, the admin's tickets.
  expect(state.counts).toMatchObject({ organizations: 2, invoices: 1, support_tickets: 2 });
  const pending = migrationsOf(migrationsFolder).length - state.migrations.length;
  expect(pending).toBeGreaterThan(0);
  return { filled, before: state, pending, startMs };
}

// A shallow clone lacks the previous release: said loudly, and the upgrade is not tested there.
const inHistory = previousReleaseInHistory();
if (!inHistory)
  console.warn(
    `upgrade tests skipped: ${PREVIOUS_RELEASE} is not in this clone's history (git fetch --unshallow)`,
  );

describe.skipIf(usePostgres || !inHistory)('upgrading a data folder of the previous release', () => {
  it('starts on it, applies the new migrations once, keeps every row, signs in and renders the invoice', async ({
    task,
  }) => {
    const root = mkdtempSync(join(tmpdir(), 'portal-upgrade-'));
    folders.push(root);
    const dataDir = join(root, 'data');
    const mailDir = join(root, 'mail');
    const { filled, before, pending, startMs } = await leftByPreviousRelease({ DATA_DIR: dataDir }, mailDir);
    const port = await freePort();
    const settings = settingsOf({ DATA_DIR: dataDir }, mailDir, port);
    const base = `http://127.0.0.1:${port}`;

    // The first start migrates; stopped again, the folder can be read: every row is still there.
    const began = Date.now();
    const upgraded = await startPortal(settings);
    expectRunning(upgraded);
    const upgradeStartMs = Date.now() - began;
    await stop(upgraded);
    const after = await stateAt({ dataDir });
    expect(after.migrations).toEqual(migrationsOf(migrationsFolder));
    expectRowsKept(after.counts, before.counts);

    const again = await startPortal(settings);
    expectRunning(again);
    await expectSignInsAndData(base, filled, await filled.authenticator.nextCode());
    await stop(again);
    expect((await stateAt({ dataDir })).migrations).toEqual(migrationsOf(migrationsFolder));
    task.meta.figures = { previousReleaseStartMs: startMs, upgradeStartMs, migrationsApplied: pending };
  }, 240_000);
});

/** The sessions of `database` waiting for a lock (a table's, or an advisory one). */
async function lockWaiters(client: pg.Client, database: string): Promise<number> {
  // Within a transaction (the gate's) the activity view is read once, then served from a snapshot.
  await client.query('select pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`,
    [database],
  );
  return rows[0]!.n;
}

describe.skipIf(!usePostgres || !inHistory)('upgrading a PostgreSQL database of the previous release', () => {
  it(`${NEW_PROCESSES} processes starting at once migrate it once, keep every row and each signs in`, async ({
    task,
  }) => {
    const mailDir = mkdtempSync(join(tmpdir(), 'portal-upgrade-mail-'));
    folders.push(mailDir);
    const target = await createPostgresDatabase();
    databases.push(target.drop);
    const where = { DATABASE_URL: target.url };
    const { filled, before, pending, startMs } = await leftByPreviousRelease(where, mailDir);

    // Processes started together still reach the migrations at different moments (each loads its code
    // first); the gate holds the migrations table until all of them wait on a lock, then lets them in at once.
    const gate = new pg.Client({ connectionString: target.url });
    await gate.connect();
    let opened = false;
    const began = Date.now();
    try {
      await gate.query('begin');
      await gate.query('lock table drizzle.__drizzle_migrations in access exclusive mode');
      const ports = await Promise.all(Array.from({ length: NEW_PROCESSES }, () => freePort()));
      const starting = ports.map((port) => startPortal(settingsOf(where, mailDir, port)));
      const passedTheGate = Promise.race(starting).then((portal) => {
        if (!opened) throw new Error(`a process got past the closed migrations table:\n${portal.output()}`);
      });
      const database = new URL(target.url).pathname.slice(1);
      await Promise.race([
        until(
          async () => ((await lockWaiters(gate, database)) >= NEW_PROCESSES ? true : undefined),
          90_000,
          'the processes at the gate',
        ),
        passedTheGate,
      ]);
      opened = true;
      await gate.query('commit');
      const portals = await Promise.all(starting);
      const upgradeStartMs = Date.now() - began;
      for (const portal of portals) expectRunning(portal);

      const after = await stateAt({ databaseUrl: target.url });
      expect(after.migrations).toEqual(migrationsOf(migrationsFolder));
      expectRowsKept(after.counts, before.counts);

      // Through each process: the first with the authenticator, the others with recovery codes (each
      // step's code is taken once, and the step after next is not accepted yet).
      for (const [i, port] of ports.entries()) {
        const code = i === 0 ? await filled.authenticator.nextCode() : filled.recoveryCodes.shift()!;
        await expectSignInsAndData(`http://127.0.0.1:${port}`, filled, code);
      }
      for (const portal of portals) await stop(portal);
      task.meta.figures = {
        processes: NEW_PROCESSES,
        previousReleaseStartMs: startMs,
        upgradeStartMs,
        migrationsApplied: pending,
      };
    } finally {
      await gate.end();
    }
  }, 240_000);
});
