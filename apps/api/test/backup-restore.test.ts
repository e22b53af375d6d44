/**
 * Backup and restore as an operator runs them (issue 33 item 4, docs/decisions/030), against a real
 * portal process: a backup taken while 20 clients write restores into a database that holds every
 * write acknowledged before the backup began, no write in part, the uploaded files and the portal's
 * secrets; a portal started on it signs people in and renders invoice PDFs. On PGlite the commands are
 * `npm run backup` and `npm run restore`; on PostgreSQL (TEST_DATABASE=postgres), the pg_dump and
 * pg_restore of docs/operations.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { BackupFileError } from '../src/db/backup-archive.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { lockDataDir } from '../src/db/data-dir-lock.js';
import { RestoreRefusedError, restoreBackup } from '../src/db/restore-backup.js';
import { takeBackup } from '../src/db/take-backup.js';
import { loadEnv } from '../src/env.js';
import { addInvoicedPayment } from './fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  ADMIN_TOTP_SECRET,
  createOrganizationDirect,
  createUserDirect,
  LONG_MODE,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  TEST_HASH_COST,
  TEST_JOBS,
  totpCode,
  type TestContext,
} from './harness.js';
import { freePort, HttpClient } from './http-client.js';
import { killPortals, runCommand, startCommand, startPortal } from './portal-process.js';
import { createPostgresDatabase, TEST_SESSION_SECRET, usePostgres } from './test-database.js';
import { multipartBody, pdfOfSize } from './upload-fixtures.js';

const WRITERS = 20;
/**
 * Each writer's pause between two writes: enough to leave the 2 cores room for the backup command in
 * the normal run, short enough that writes are always in flight; the long run writes flat out.
 */
const PAUSE_MS = LONG_MODE ? 0 : 100;
/** Backups taken one after another during the load: the long run takes more moments of it. */
const BACKUPS = LONG_MODE ? 3 : 1;
/** Rows the portal writes on its own schedule (a slot may pass during the test): left out of the counts. */
const CLOCK_DRIVEN_TABLES = new Set(['scheduled_runs']);

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const folders: string[] = [];
const databases: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killPortals();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  for (const drop of databases.splice(0)) await drop();
});

/** Every table of the portal's schema and its number of rows. */
async function countRows(database: Database): Promise<Record<string, number>> {
  const tables = rowsOf<{ name: string }>(
    await database.db.execute(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    ),
  ).map((t) => t.name);
  const counts = rowsOf<{ name: string; n: number }>(
    await database.db.execute(
      sql.raw(tables.map((t) => `select '${t}' as name, count(*)::int as n from "${t}"`).join(' union all ')),
    ),
  );
  return Object.fromEntries(counts.map((c) => [c.name, c.n]));
}

async function withDatabase<T>(place: Place, work: (database: Database) => Promise<T>): Promise<T> {
  const database = await place.open();
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** The emails of the users the load created, in a folder's database. */
async function loadUsers(database: Database): Promise<Set<string>> {
  const rows = rowsOf<{ email: string }>(
    await database.db.execute(sql`select email from users where email like 'load-%@backup.test'`),
  );
  return new Set(rows.map((r) => r.email));
}

interface Writer {
  organizationId: string;
  cookies: Map<string, string>;
}

/**
 * A database as a portal would have it: a copy of the suite's migrated template (its super
 * administrator signs in with ADMIN_TOTP_SECRET, its SESSION_SECRET is stored in app_settings), 20
 * organizations whose admins are signed in (their cookies carry over to the portal process), a paid
 * invoice and a ticket with a 300 kB attachment (two stored pieces). Closes `database`.
 */
async function prepareDatabase(database: Database) {
  const app = await buildApp({
    env: loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SESSION_SECRET: TEST_SESSION_SECRET }),
    database,
    hashCost: TEST_HASH_COST,
    logger: false,
    config: { jobs: { ...TEST_JOBS, work: false } },
  });
  await app.ready();
  try {
    const ctx = { app, database } as TestContext;
    const roleId = await roleIdByName(ctx);
    const writers: Writer[] = [];
    for (let i = 0; i < WRITERS; i++) {
      const organizationId = await createOrganizationDirect(ctx, `Backup Org ${i}`);
      const email = `writer-${i}@backup.test`;
      await createUserDirect(ctx, { email, roleId, organizationId });
      const session = await signIn(app, email, STRONG_PASSWORD);
      writers.push({ organizationId, cookies: new Map(session.cookies) });
    }
    const invoice = await addInvoicedPayment(ctx, writers[0]!.organizationId);
    const attachment = pdfOfSize(300_000);
    const form = multipartBody({ message: 'Before the backup' }, { name: 'notes.pdf', data: attachment });
    const owner = await signIn(app, 'writer-0@backup.test', STRONG_PASSWORD);
    const ticket = await owner.post('/api/auth/support/tickets', form.payload, { headers: form.headers });
    expect(ticket.statusCode).toBe(201);
    return {
      roleId,
      writers,
      invoice,
      attachment: { url: ticket.json().data.file as string, sha256: sha256(attachment) },
      before: await countRows(database),
    };
  } finally {
    await app.close();
    await database.close();
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Write {
  email: string;
  sentAt: number;
  acknowledgedAt?: number;
}

/**
 * The writers: each invites users into its organization, one request after another, until `stop()`.
 * An invitation is one transaction writing the user, its activity entry, its set-password token and
 * its mail; every write is recorded with when it was sent and when it was acknowledged (201).
 */
function startLoad(base: string, writers: Writer[], roleId: string) {
  const writes: Write[] = [];
  const refused: string[] = [];
  let stopped = false;
  const run = async (writer: Writer, w: number) => {
    const client = new HttpClient(base, writer.cookies);
    for (let i = 0; !stopped; i++) {
      const write: Write = { email: `load-${w}-${i}@backup.test`, sentAt: Date.now() };
      writes.push(write);
      try {
        const res = await client.post('/api/auth/users/as/admin', {
          email: write.email,
          username: `load-${w}-${i}`,
          mobileNo: `9${String(w).padStart(2, '0')}${String(i).padStart(7, '0')}`,
          client: `Backup Org ${w}`,
          organizationId: writer.organizationId,
          roleId,
        });
        if (res.status === 201) write.acknowledgedAt = Date.now();
        else refused.push(`${res.status} ${res.body.toString('utf8').slice(0, 200)}`);
      } catch (error) {
        refused.push(String(error));
      }
      if (refused.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  };
  const done = Promise.all(writers.map(run));
  return {
    writes,
    refused,
    acknowledged: () => writes.filter((w) => w.acknowledgedAt !== undefined).length,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

async function until(check: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function pdfText(pdf: Buffer): Promise<string> {
  const proxy = await getDocumentProxy(new Uint8Array(pdf));
  try {
    return (await extractText(proxy, { mergePages: true })).text.replace(/\s+/g, ' ');
  } finally {
    await proxy.destroy();
  }
}

/** Where a portal keeps its database: its settings, and how the test reads that database. */
interface Place {
  settings: Record<string, string>;
  open(): Promise<Database>;
}

/** A command run to its end, as runCommand runs the portal's own. */
interface Ran {
  code: number | null;
  output: string;
}

/** One of the operator's programs (pg_dump, pg_restore), with PATH the only setting it is given. */
function runProgram(program: string, args: string[]): Promise<Ran> {
  const child = spawn(program, args, { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.once('close', (code) => resolve({ code, output }));
    child.once('error', (error) => resolve({ code: null, output: String(error) }));
  });
}

/** How one database is backed up and restored, as docs/operations.md tells the operator. */
interface BackupPath {
  name: string;
  /** A copy of the suite's template to run the portal on, open for the test to prepare. */
  create(root: string): Promise<{ place: Place; database: Database }>;
  /** Starts a backup: `dumped` once the copy is taken (the rest concerns the file), `done` at its end. */
  backup(place: Place, file: string): { dumped: Promise<unknown>; done: Promise<Ran> };
  /** Checks what the backup command answered (its output, the file it wrote). */
  expectBackup(ran: Ran, file: string): void;
  restore(root: string, index: number, file: string): Promise<{ place: Place; ran: Ran }>;
  /** A restore over the database the portal ran on, which must be refused. */
  expectRefusal?(place: Place, file: string): Promise<void>;
}

const templateDump = () => readFileSync((inject('template') as { dumpFile: string }).dumpFile);

const folderPlace = (dataDir: string): Place => ({
  settings: { DATA_DIR: dataDir },
  open: () => openDatabase({ dataDir: join(dataDir, 'pg') }),
});

const pglitePath: BackupPath = {
  name: 'PGlite: npm run backup while 20 clients write, then npm run restore',
  async create(root) {
    const dataDir = join(root, 'data');
    const database = await openDatabase({ dataDir: join(dataDir, 'pg'), fromDump: templateDump() });
    return { place: folderPlace(dataDir), database };
  },
  backup(place, file) {
    const command = startCommand('backup', [file], place.settings);
    const done = command.exited.then((code) => ({ code, output: command.output() }));
    return {
      dumped: Promise.race([until(() => command.output().includes('Copy taken'), 120_000), done]),
      done,
    };
  },
  expectBackup(ran, file) {
    expect(ran.output).toContain('Copy taken from the running portal');
    expect(ran.output).toContain(`Backup written to ${file}`);
    expect(ran.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  },
  async restore(root, index, file) {
    const dataDir = join(root, `restored-${index}`);
    const ran = await runCommand('restore', [file], { DATA_DIR: dataDir });
    expect(ran.output).toContain(`Restored into ${dataDir}`);
    return { place: folderPlace(dataDir), ran };
  },
  async expectRefusal(place, file) {
    const refused = await runCommand('restore', [file], place.settings);
    expect(refused.output).toContain(`The data folder ${place.settings.DATA_DIR} is not empty`);
    expect(refused.code).toBe(1);
  },
};

async function postgresPlace(template?: string): Promise<Place> {
  const { url, drop } = await createPostgresDatabase(template);
  databases.push(drop);
  return { settings: { DATABASE_URL: url }, open: () => openDatabase({ databaseUrl: url }) };
}

const postgresPath: BackupPath = {
  name: 'PostgreSQL: pg_dump while 20 clients write, then pg_restore into an empty database',
  async create() {
    const place = await postgresPlace((inject('template') as { database: string }).database);
    return { place, database: await place.open() };
  },
  backup(place, file) {
    const done = runProgram('pg_dump', ['--format=custom', `--file=${file}`, place.settings.DATABASE_URL!]);
    // pg_dump's snapshot is taken as it starts; its end is the first moment the test can tell.
    return { dumped: done, done };
  },
  expectBackup(ran) {
    expect({ code: ran.code, output: ran.output }).toEqual({ code: 0, output: '' });
  },
  async restore(_root, _index, file) {
    const place = await postgresPlace();
    const ran = await runProgram('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${place.settings.DATABASE_URL}`,
      file,
    ]);
    expect(ran.output).toBe('');
    return { place, ran };
  },
};

const hasPgTools =
  usePostgres && ['pg_dump', 'pg_restore'].every((p) => spawnSync(p, ['--version']).status === 0);
const path = usePostgres ? postgresPath : pglitePath;

interface TakenBackup {
  file: string;
  began: number;
  ended: number;
  code: number | null;
  output: string;
}

describe.skipIf(usePostgres && !hasPgTools)(path.name, () => {
  it('restores every write acknowledged before the backup began, none in part, with files and secrets', async ({
    task,
  }) => {
    const root = mkdtempSync(join(tmpdir(), 'portal-backup-'));
    folders.push(root);
    const created = await path.create(root);
    const source = created.place;
    const setup = await prepareDatabase(created.database);

    // No SESSION_SECRET: the portal reads the one stored in the database, which must travel with it.
    const port = String(await freePort());
    const portal = await startPortal({ ...source.settings, PORT: port });
    expect(portal.output()).toContain('is running at');
    const load = startLoad(`http://127.0.0.1:${port}`, setup.writers, setup.roleId);
    const backups: TakenBackup[] = [];
    for (let b = 0; b < BACKUPS; b++) {
      await until(() => load.acknowledged() >= (b + 1) * WRITERS || load.refused.length > 0, 60_000);
      const file = join(root, `portal-${b}.backup`);
      const began = Date.now();
      const { dumped, done } = path.backup(source, file);
      const finished = done.then((ran) => ({ ...ran, ended: Date.now() }));
      await dumped;
      const dumpedAt = Date.now();
      if (b === BACKUPS - 1) {
        // Writes sent after the last copy was taken, which no backup may hold; then the load ends,
        // and the command writes and checks its file on a quiet machine.
        const after = () => load.writes.filter((w) => w.sentAt > dumpedAt && w.acknowledgedAt !== undefined);
        await until(() => after().length >= WRITERS || load.refused.length > 0, 60_000);
        await load.stop();
      }
      backups.push({ file, began, ...(await finished) });
    }
    portal.child.kill('SIGTERM');
    expect(await portal.exited).toBe(0);
    expect(load.refused).toEqual([]);
    const acknowledgedWithin = (from: number, to: number) =>
      load.writes.filter((w) => w.acknowledgedAt! > from && w.acknowledgedAt! < to);
    for (const backup of backups) {
      path.expectBackup(backup, backup.file);
      // It began in the middle of writes: some were sent and not yet answered.
      const inFlight = load.writes.filter((w) => w.sentAt < backup.began && w.acknowledgedAt! > backup.began);
      expect(inFlight.length).toBeGreaterThan(0);
    }

    // The portal's own database lost nothing to the backups: every write is there.
    const final = await withDatabase(source, async (database) => ({
      counts: await countRows(database),
      users: await loadUsers(database),
    }));
    expect(final.users.size).toBe(load.writes.length);
    await path.expectRefusal?.(source, backups[0]!.file);

    const figures: Record<string, number>[] = [];
    const restoredPlaces: Place[] = [];
    for (const [b, backup] of backups.entries()) {
      const { place, ran } = await path.restore(root, b, backup.file);
      expect(ran.code).toBe(0);
      restoredPlaces.push(place);
      const restored = await withDatabase(place, async (database) => ({
        counts: await countRows(database),
        users: await loadUsers(database),
        // An invitation in part: a user without its activity entry, set-password token or mail.
        partial: rowsOf<{ email: string }>(
          await database.db.execute(sql`
            select u.email from users u
            where u.email like 'load-%@backup.test' and (
              (select count(*) from activity_entries a where a.entity_id = u.id::text) <> 1 or
              (select count(*) from one_time_tokens t where t.user_id = u.id) <> 1 or
              (select count(*) from email_outbox m where m.to_address = u.email) <> 1)`),
        ),
      }));

      // Every write acknowledged before the backup began is there; every one there was sent before
      // it ended; and it is one moment in the middle: the writes after it are not.
      const acknowledgedBefore = load.writes.filter((w) => w.acknowledgedAt! < backup.began);
      expect(acknowledgedBefore.filter((w) => !restored.users.has(w.email)).map((w) => w.email)).toEqual([]);
      const sentBeforeEnd = new Set(load.writes.filter((w) => w.sentAt < backup.ended).map((w) => w.email));
      expect([...restored.users].filter((email) => !sentBeforeEnd.has(email))).toEqual([]);
      expect(restored.users.size).toBeLessThan(final.users.size);
      expect(restored.partial).toEqual([]);

      // Nothing in part, table by table: every table holds its rows from before the load and k more
      // per restored invitation, k being what each invitation added to the portal's own database.
      const mismatched: string[] = [];
      let rowsPerInvitation = 0;
      for (const table of Object.keys(setup.before)) {
        if (CLOCK_DRIVEN_TABLES.has(table)) continue;
        const k = (final.counts[table]! - setup.before[table]!) / final.users.size;
        rowsPerInvitation += k;
        const expected = setup.before[table]! + k * restored.users.size;
        if (!Number.isInteger(k) || restored.counts[table] !== expected)
          mismatched.push(
            `${table}: ${restored.counts[table]} rows, expected ${expected} (${k} per invitation)`,
          );
      }
      expect(mismatched).toEqual([]);
      // The user, its activity entry, its set-password token and its mail.
      expect(rowsPerInvitation).toBe(4);

      const latencies = (writes: Write[]) =>
        writes.map((w) => w.acknowledgedAt! - w.sentAt).sort((x, y) => x - y);
      const during = latencies(acknowledgedWithin(backup.began, backup.ended));
      const before = latencies(acknowledgedWithin(0, backup.began));
      const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)] ?? 0;
      // The embedded database's pause, as npm run backup reports it (pg_dump pauses nothing).
      const dumpMs = Number(backup.output.match(/paused for (\d+) ms/)?.[1] ?? 0);
      figures.push({
        acknowledgedBeforeBackup: acknowledgedBefore.length,
        restoredInvitations: restored.users.size,
        acknowledgedDuringBackup: during.length,
        medianInvitationBeforeBackupMs: median(before),
        medianInvitationDuringBackupMs: median(during),
        slowestInvitationDuringBackupMs: during.at(-1) ?? 0,
        backupCommandMs: backup.ended - backup.began,
        dumpMs,
        backupBytes: statSync(backup.file).size,
      });
      console.log(
        `backup ${b + 1} while ${WRITERS} clients wrote: ${acknowledgedBefore.length} invitations acknowledged before it began, ${restored.users.size} restored, ${final.users.size} in all; ${during.length} acknowledged during its ${backup.ended - backup.began} ms, in ${median(during)} ms (median; ${median(before)} ms before it)${dumpMs ? `; the database paused ${dumpMs} ms` : ''}`,
      );
    }

    const again = await startPortal({ ...restoredPlaces[0]!.settings, PORT: port });
    expect(again.output()).toContain('is running at');
    const restoredBase = `http://127.0.0.1:${port}`;

    // The super administrator's second factor decrypts with the SESSION_SECRET stored in the database.
    const rootUser = new HttpClient(restoredBase);
    const password = await rootUser.post('/api/auth/auth-session/login', {
      identifier: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    const challenge = password.json<{ data: { challenge: string } }>().data.challenge;
    const code = await rootUser.post('/api/auth/auth-session/two-factor', {
      challenge,
      code: totpCode(ADMIN_TOTP_SECRET),
    });
    expect(code.status).toBe(200);

    // An admin signs in with a password; a session from before the backup still holds.
    const admin = new HttpClient(restoredBase);
    const signedIn = await admin.post('/api/auth/auth-session/login', {
      identifier: 'writer-0@backup.test',
      password: STRONG_PASSWORD,
    });
    expect(signedIn.status).toBe(200);
    const earlier = new HttpClient(restoredBase, new Map(setup.writers[1]!.cookies));
    expect((await earlier.get('/api/auth/auth-session/me')).status).toBe(200);

    const pdf = await admin.get(`/api/auth/invoices/${setup.invoice.invoiceId}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.contentType).toContain('application/pdf');
    expect(await pdfText(pdf.body)).toContain(setup.invoice.number);
    const attachment = await admin.get(setup.attachment.url);
    expect(attachment.status).toBe(200);
    expect(sha256(attachment.body)).toBe(setup.attachment.sha256);

    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    task.meta.figures = { writers: WRITERS, writesSent: load.writes.length, ...figures[0] };
  }, 300_000);
});

describe.skipIf(usePostgres)('a backup of a stopped portal, and what a restore refuses', () => {
  it('copies the folder as it is, and restores it only into an empty folder from a whole backup file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'portal-backup-stopped-'));
    folders.push(root);
    const source = join(root, 'data');
    const file = join(root, 'portal.tar.gz');
    await expect(takeBackup(source, file)).rejects.toThrow(`There is no embedded database in ${source}`);
    const database = await openDatabase({ dataDir: join(source, 'pg'), fromDump: templateDump() });
    await createOrganizationDirect({ database } as TestContext, 'Stopped Org');
    const counts = await countRows(database);
    await database.close();

    const report = await takeBackup(source, file);
    expect(report).toMatchObject({ from: 'folder', summary: { organizations: counts.organizations } });
    // The command gave the folder back: a portal may start on it.
    lockDataDir(source)();

    const target = join(root, 'restored');
    expect(await restoreBackup(target, file)).toEqual(report.summary);
    expect(await withDatabase(folderPlace(target), countRows)).toEqual(counts);

    // Not over a database, not into a folder with anything in it.
    await expect(restoreBackup(target, file)).rejects.toThrow(RestoreRefusedError);
    const occupied = join(root, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'notes.txt'), 'mine');
    await expect(restoreBackup(occupied, file)).rejects.toThrow(`The data folder ${occupied} is not empty`);

    // A file that is not a whole backup is refused before the folder is made.
    const whole = readFileSync(file);
    const broken = {
      'cut.tar.gz': whole.subarray(0, whole.length >> 1),
      'plain.txt': Buffer.from('not a backup'),
      'other.tar.gz': gzipSync(Buffer.from('a gzip file, but no tar inside it')),
    };
    for (const [name, bytes] of Object.entries(broken)) {
      writeFileSync(join(root, name), bytes);
      const empty = join(root, `empty-${name}`);
      await expect(restoreBackup(empty, join(root, name))).rejects.toThrow(BackupFileError);
      expect(existsSync(empty)).toBe(false);
    }
  }, 120_000);
});
