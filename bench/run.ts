// `npm run bench`: every performance figure of the project, each a ratio taken in one run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.js';
import { openDatabase } from '../apps/api/src/db/client.js';
import { seed } from '../apps/api/src/db/seed.js';
import { loadEnv } from '../apps/api/src/env.js';
import { createPasswordHasher } from '../apps/api/src/lib/passwords.js';
import { benchApi, type ApiRun, type Figure } from './api-bench.js';
import { benchJobs } from './jobs-bench.js';
import { benchLighthouse } from './lighthouse-bench.js';
import { benchImports } from './imports-bench.js';
import { benchRenewals } from './renewals-bench.js';
import { benchTenantDay } from './tenant-day.js';
import { benchWebSize } from './web-bench.js';
import { freePort } from './free-port.js';

const postgresUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const only = new Set((process.env.BENCH_ONLY ?? 'api,web,lighthouse').split(','));
// BENCH_FIGURES=uploads: of the API part, only the upload figure; =hooks: only the global-hook figure;
// =sign-in: only the sign-in figures (throughput, TOTP, the flood from 1,000 addresses);
// =jobs: only the mail figures (jobs-bench.ts); =renewals: only the renewal figures
// (renewals-bench.ts); =tenant-day: only the day-of-a-tenant figures (tenant-day.ts); =imports: only the
// import figures (imports-bench.ts). To iterate on them.
const apiFigures = (
  ['uploads', 'hooks', 'sign-in', 'jobs', 'renewals', 'tenant-day', 'imports'] as const
).find((f) => f === process.env.BENCH_FIGURES);
// BENCH_DATABASE=pglite or =postgres: the API figures on that database only.
const databases = new Set((process.env.BENCH_DATABASE ?? 'pglite,postgres').split(','));
const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A portal serving the freshly built web app, for Lighthouse. */
async function lighthouseFigures(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-lh-data-'));
  const database = await openDatabase({ dataDir: dir });
  const admin = { email: 'lh@portal.test', password: 'Lighthouse-Passw0rd!' };
  try {
    await database.migrate();
    await seed(database.db, createPasswordHasher(), admin);
    // The browser signs in, so its Origin must be the configured public address.
    const port = await freePort();
    const env = loadEnv({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PAYMENT_PROVIDER: 'sandbox',
      WEB_DIST_DIR: fileURLToPath(new URL('./.tmp/web-dist', import.meta.url)),
    });
    const app = await buildApp({ env, database, logger: false, serveWeb: true });
    const base = await app.listen({ port, host: '127.0.0.1' });
    try {
      return await benchLighthouse(base, admin, log);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const figures: Figure[] = [];
const line = (f: Figure, width: number) =>
  `${f.pass ? 'PASS' : 'MISS'}  ${f.name.padEnd(width)}  ${f.value.toFixed(2).padStart(8)}  goal ${f.goal.padEnd(6)}  ${f.detail}\n`;
/** Prints each part's figures as it ends, so a later part failing loses nothing measured. */
function add(part: Figure[]) {
  for (const f of part) process.stdout.write(`         ${line(f, 0)}`);
  figures.push(...part);
}

/** One database's API figures, then its mail figures (each on a portal of its own); answers the uploads'. */
async function apiPart(kind: 'pglite' | 'postgres'): Promise<ApiRun['uploads'] | undefined> {
  let uploads: ApiRun['uploads'] | undefined;
  if (
    apiFigures === undefined ||
    apiFigures === 'uploads' ||
    apiFigures === 'hooks' ||
    apiFigures === 'sign-in'
  ) {
    const run = await benchApi(kind, postgresUrl, log, apiFigures);
    add(run.figures);
    uploads = run.uploads;
  }
  if (apiFigures === undefined || apiFigures === 'jobs') add(await benchJobs(kind, postgresUrl, log));
  if (apiFigures === undefined || apiFigures === 'renewals') add(await benchRenewals(kind, postgresUrl, log));
  if (apiFigures === undefined || apiFigures === 'tenant-day')
    add(await benchTenantDay(kind, postgresUrl, log));
  if (apiFigures === undefined || apiFigures === 'imports') add(await benchImports(kind, postgresUrl, log));
  return uploads;
}

if (only.has('api')) {
  const embedded = databases.has('pglite') ? await apiPart('pglite') : undefined;
  if (!databases.has('postgres')) log('BENCH_DATABASE: API figures on PGlite only');
  else if (await postgresAvailable()) {
    const server = await apiPart('postgres');
    // The embedded database serves from a thread of its own (docs/decisions/017): large uploads on
    // the API's thread should cost other requests about what they cost them beside PostgreSQL.
    if (embedded && server) {
      const ratio = embedded.p99 / server.p99;
      add([
        {
          name: 'list p99 while four 5 MB attachments upload, PGlite ÷ PostgreSQL',
          value: ratio,
          goal: '≤ 2',
          pass: ratio <= 2,
          detail: `PGlite ${embedded.detail}; PostgreSQL ${server.detail}`,
        },
      ]);
    }
  } else log('PostgreSQL not reachable: API figures on PGlite only');
}
if (only.has('web') || only.has('lighthouse')) add(await benchWebSize(log));
if (only.has('lighthouse')) add(await lighthouseFigures());

const width = Math.max(...figures.map((f) => f.name.length));
process.stdout.write('\n');
for (const f of figures) process.stdout.write(line(f, width));
process.stdout.write(
  `\n${figures.filter((f) => f.pass).length} of ${figures.length} figures meet their goal\n`,
);
mkdirSync(new URL('./results', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/latest.json', import.meta.url),
  JSON.stringify({ at: new Date().toISOString(), figures }, null, 2),
);
process.exit(0);
