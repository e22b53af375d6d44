import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.js';
import { openConfiguredDatabase } from '../apps/api/src/db/open-configured-database.js';
import { roles } from '../apps/api/src/db/schema/index.js';
import { seed } from '../apps/api/src/db/seed.js';
import { loadEnv } from '../apps/api/src/env.js';
import { createPasswordHasher } from '../apps/api/src/lib/passwords.js';
import { newTotpSecret } from '../apps/api/src/modules/two-factor/totp.js';
import { startPortal, type PortalProcess } from '../apps/api/test/portal-process.js';
import type { Figure } from './api-bench.js';
import { startPeerProcess } from './smtp-peer-process.js';
import { createTenants, type TenantShape } from './tenant-day-dataset.js';
import { startTenantDayLoad, type StepReport } from './tenant-day-load.js';
import { ROUTES, type AdminSettings } from './tenant-day-scenario.js';
import { freePort } from './free-port.js';

/** Every route's p99 must stay under this for a step to count as sustained. */
export const P99_LIMIT_MS = 500;

export interface TenantDayPlan {
  /** Admins playing at each step, in order; the run stops after the first step that fails. */
  steps: number[];
  /** Newcomers of a step arrive spread over this many seconds, which are not measured. */
  rampSeconds: number;
  /** Each step's measured seconds. */
  seconds: number;
  /**
   * Seconds the first step's admins play before anything is measured: a portal process's first
   * requests load code, and its first PDF starts the rendering thread (seconds on a busy machine).
   */
  warmupSeconds: number;
  shape: TenantShape;
  settings: Omit<AdminSettings, 'password' | 'totpSecret' | 'members'>;
  /** Each playing organization's interview bot: debits per second. */
  botRate: number;
}

/**
 * `npm run bench`'s day: steps doubling from 5 admins, 10 s of arrivals and 30 s measured each; below
 * some 100 answers a route's p99 is its slowest answer, so the table gives the counts beside it.
 * Think time 3 s on average (a person glancing at a list or a PDF before the next click), 15 actions
 * a session. Each playing organization's bot debits a credit a second: 3,600 interviews an hour, far
 * above a real customer's, so the write path carries what the busiest tenant's peak would bring.
 */
export const BENCH_PLAN: TenantDayPlan = {
  steps: [5, 10, 20, 40, 80, 160, 320],
  rampSeconds: 10,
  seconds: 30,
  warmupSeconds: 20,
  shape: { organizations: 320, admins: 2, members: 48, credits: 1_000_000 },
  settings: { thinkMs: 3_000, sessionActions: 15, attachmentBytes: 200 * 1024 },
  botRate: 1,
};

const PASSWORD = 'Tenant-Day-Passw0rd!';
const SESSION_SECRET = 'tenant-day-secret-tenant-day-secret-0000';
const ORIGIN = 'http://127.0.0.1';
const SUPER_ADMIN = { email: 'day-root@portal.test', password: 'Day-Root-Passw0rd!' };

export interface TenantDayRun {
  steps: StepReport[];
  /** The largest step whose every route answered within P99_LIMIT_MS without an error; 0 if none. */
  sustained: number;
  /** Mails the portals delivered to the SMTP peer in the run (invoices with their PDFs, new devices). */
  mails: number;
}

/** Every route that was asked answered without an error, and within the limit at the 99th percentile. */
export function stepPassed(report: StepReport): boolean {
  return Object.values(report.routes).every(
    (r) => r.errors === 0 && (r.p99 === null || r.p99 < P99_LIMIT_MS),
  );
}

/** The route with the highest p99 of a step. */
export function worstRoute(report: StepReport): { route: string; p99: number } {
  return Object.entries(report.routes)
    .flatMap(([route, r]) => (r.p99 === null ? [] : [{ route, p99: r.p99 }]))
    .reduce((worst, r) => (r.p99 > worst.p99 ? r : worst), { route: '', p99: 0 });
}

/** A database of the run's own: a temporary data folder, or a new PostgreSQL database. */
async function createDatabase(
  kind: 'pglite' | 'postgres',
  postgresUrl: string,
): Promise<{ settings: Record<string, string>; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-day-'));
    return {
      settings: { DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `portal_day_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    settings: { DATABASE_URL: url.toString() },
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/** The portal's settings, the same for the process that builds the data set and those that serve. */
const portalSettings = (database: Record<string, string>, smtpUrl: string) => ({
  ...database,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  PUBLIC_URL: ORIGIN,
  PAYMENT_PROVIDER: 'sandbox',
  SESSION_SECRET,
  SMTP_URL: smtpUrl,
  ADMIN_EMAIL: SUPER_ADMIN.email,
  ADMIN_PASSWORD: SUPER_ADMIN.password,
  // Every simulated admin signs in from 127.0.0.1: the per-address limit is for attackers, not them.
  LOGIN_ATTEMPTS_PER_ADDRESS: '10000000',
});

/** Migrates, seeds and fills the database with the plan's tenants, through the portal's own code. */
async function buildDataSet(settings: Record<string, string>, plan: TenantDayPlan, totpSecret: string) {
  const env = loadEnv(settings);
  const { database, unlock } = await openConfiguredDatabase(env);
  try {
    await database.migrate();
    const hasher = createPasswordHasher();
    await seed(database.db, hasher, SUPER_ADMIN);
    const [adminRole] = await database.db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.name, 'admin'), isNull(roles.organizationId)));
    // Jobs are not started here: the serving processes run them.
    const app = await buildApp({ env, database, logger: false });
    try {
      return await createTenants(app.deps, plan.shape, {
        adminRoleId: adminRole!.id,
        passwordHash: await hasher.hash(PASSWORD),
        sessionSecret: SESSION_SECRET,
        totpSecret,
      });
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    unlock();
  }
}

async function stopPortal(portal: PortalProcess) {
  if (portal.child.exitCode !== null || portal.child.signalCode !== null) return;
  const timer = setTimeout(() => portal.child.kill('SIGKILL'), 30_000);
  portal.child.kill('SIGTERM');
  await portal.exited;
  clearTimeout(timer);
}

/**
 * The day of a tenant on `kind`: one portal process on PGlite, two on one PostgreSQL database (the
 * admins and bots spread over both), each as `npm start` runs it, mail going to an SMTP peer. The
 * plan's steps are played in turn until one fails.
 */
export async function runTenantDay(
  kind: 'pglite' | 'postgres',
  postgresUrl: string,
  plan: TenantDayPlan,
  log: (line: string) => void,
): Promise<TenantDayRun> {
  const closing: (() => Promise<void>)[] = [];
  try {
    const database = await createDatabase(kind, postgresUrl);
    closing.push(database.drop);
    const peer = await startPeerProcess();
    closing.push(peer.close);
    const settings = portalSettings(database.settings, peer.url);
    const totpSecret = newTotpSecret();
    log(`[${kind}] day of a tenant: ${plan.shape.organizations} organizations, building the data set`);
    const tenants = await buildDataSet(settings, plan, totpSecret);

    log(`[${kind}] data set built`);
    const processes = kind === 'pglite' ? 1 : 2;
    const bases: string[] = [];
    for (let i = 0; i < processes; i++) {
      const port = await freePort();
      const portal = await startPortal({ ...settings, HOST: '127.0.0.1', PORT: String(port) });
      closing.push(() => stopPortal(portal));
      if (!portal.output().includes('is running at'))
        throw new Error(`a portal process did not start:\n${portal.output()}`);
      bases.push(`http://127.0.0.1:${port}`);
    }

    const load = await startTenantDayLoad({
      bases,
      origin: ORIGIN,
      tenants,
      settings: { ...plan.settings, password: PASSWORD, totpSecret, members: plan.shape.members },
      botRate: plan.botRate,
      runId: randomBytes(4).toString('hex'),
    });
    closing.push(load.close);
    log(`[${kind}] ${processes} portal process${processes > 1 ? 'es' : ''} started; warming up`);
    if (plan.warmupSeconds > 0) await load.step(plan.steps[0]!, plan.rampSeconds, plan.warmupSeconds);
    const steps: StepReport[] = [];
    let sustained = 0;
    for (const admins of plan.steps) {
      const report = await load.step(admins, plan.rampSeconds, plan.seconds);
      steps.push(report);
      const passed = stepPassed(report);
      const worst = worstRoute(report);
      const requests = Object.values(report.routes).reduce((sum, r) => sum + r.count, 0);
      const errors = Object.values(report.routes).reduce((sum, r) => sum + r.errors, 0);
      log(
        `[${kind}] ${admins} admins: ${passed ? 'sustained' : 'not sustained'}; worst p99 ${worst.p99.toFixed(0)} ms (${worst.route}); ${(requests / report.seconds).toFixed(0)} requests/s, ${errors} failed${errors > 0 ? ` (${JSON.stringify(report.failures)})` : ''}; driver's event-loop delay p99 ${report.driverDelayP99.toFixed(0)} ms; load average ${loadavg()[0]!.toFixed(1)}`,
      );
      if (!passed) break;
      sustained = admins;
    }
    const mails = await peer.count();
    log(`[${kind}] ${mails} mails delivered by the portals' jobs during the day`);
    return { steps, sustained, mails };
  } finally {
    for (const close of closing.reverse()) await close();
  }
}

const ms = (value: number | null) => (value === null || Number.isNaN(value) ? '–' : value.toFixed(0));

/** A run as a Markdown table: a row per route, a column per step, `p50 / p99 (count)` in each cell. */
export function tenantDayTable(run: TenantDayRun): string {
  const header = `| Route | ${run.steps.map((s) => `${s.admins} admins`).join(' | ')} |`;
  const rule = `|---|${run.steps.map(() => '---|').join('')}`;
  const rows = ROUTES.map(
    (route) =>
      `| \`${route}\` | ${run.steps
        .map((s) => {
          const r = s.routes[route];
          return `${ms(r.p50)} / ${ms(r.p99)} (${r.count}${r.errors > 0 ? `, ${r.errors} failed` : ''})`;
        })
        .join(' | ')} |`,
  );
  const verdict = `| every p99 < ${P99_LIMIT_MS} ms, no error | ${run.steps.map((s) => (stepPassed(s) ? 'yes' : '**no**')).join(' | ')} |`;
  const rates = `| requests/s | ${run.steps
    .map((s) => (Object.values(s.routes).reduce((sum, r) => sum + r.count, 0) / s.seconds).toFixed(0))
    .join(' | ')} |`;
  const delays = `| the driver's event-loop delay p99, ms | ${run.steps.map((s) => s.driverDelayP99.toFixed(0)).join(' | ')} |`;
  return [header, rule, ...rows, rates, delays, verdict].join('\n');
}

/**
 * The day-of-a-tenant figures on `kind` (`BENCH_FIGURES=tenant-day` runs these alone): the admins
 * sustained, and the worst route's p99 at that step. The run's table goes to the log, for
 * bench/results/tenant-day.md.
 */
export async function benchTenantDay(
  kind: 'pglite' | 'postgres',
  postgresUrl: string,
  log: (line: string) => void,
): Promise<Figure[]> {
  const label = kind === 'pglite' ? 'pglite' : 'postgres, two processes';
  const run = await runTenantDay(kind, postgresUrl, BENCH_PLAN, log);
  log(`[${kind}] day of a tenant, p50 / p99 in ms (requests) per step:\n${tenantDayTable(run)}`);
  const at = run.steps.find((s) => s.admins === run.sustained);
  const worst = at ? worstRoute(at) : { route: 'none', p99: NaN };
  const next = run.steps.find((s) => s.admins > run.sustained);
  const failed = next ? Object.values(next.routes).reduce((sum, r) => sum + r.errors, 0) : 0;
  const beyond = next
    ? `; at ${next.admins}: ${worstRoute(next).route} p99 ${ms(worstRoute(next).p99)} ms, ${failed} failed`
    : "; the plan's largest step: more may be sustained";
  return [
    {
      name: `${label}: day of a tenant, concurrent admins sustained (every route's p99 < ${P99_LIMIT_MS} ms)`,
      value: run.sustained,
      goal: '≥ 40',
      pass: run.sustained >= 40,
      detail: `steps ${BENCH_PLAN.steps.join(', ')}; each admin's organization's bot debits ${BENCH_PLAN.botRate}/s; ${run.mails} mails delivered${beyond}`,
    },
    {
      name: `${label}: day of a tenant, worst route's p99 at the admins sustained (ms)`,
      value: worst.p99,
      goal: `< ${P99_LIMIT_MS}`,
      pass: worst.p99 < P99_LIMIT_MS,
      detail: `${worst.route}, at ${run.sustained} admins`,
    },
  ];
}
