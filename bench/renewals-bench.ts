import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { systemActor } from '../apps/api/src/core/actor.js';
import { ManualClock } from '../apps/api/src/core/clock.js';
import type { Deps } from '../apps/api/src/core/deps.js';
import { addMonths } from '../apps/api/src/modules/billing/rules.js';
import { runRenewals } from '../apps/api/src/modules/billing/renewals.service.js';
import { saveBenchSellerProfile, startPortal, type Figure } from './api-bench.js';
import { createRenewingOrganizations, growActivity, growUsers } from './dataset.js';
import { load, median, type LoadResult, type Target } from './load.js';

/** Subscriptions renewed by the run the figures measure. */
const RENEWALS = 10_000;
/** The run's slot: a run must finish before the next one starts. */
const SLOT_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
/** The list's rounds as the other p99 figures take them: 4 s, 5 connections. */
const LIST_SECONDS = 4;
const LIST_CONNECTIONS = 5;
const QUIET_ROUNDS = 5;
/** Rounds run until the last debit is recorded (at most this many: 20 minutes). */
const MAX_BUSY_ROUNDS = 300;
const MIN_BUSY_ROUNDS = 3;

const ms = (value: number) => value.toFixed(2);

async function settledCount(deps: Deps): Promise<number> {
  const result = await deps.db.execute(sql`select count(*)::int as n from renewals where status = 'charged'`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

/**
 * A renewal run of RENEWALS subscriptions on card mandates, as the scheduler makes it: the run 30
 * hours before their period schedules and announces each (its notice mailed to the admin), the run at
 * the period's start queues each debit, and the charge jobs debit, invoice and grant. Figures: the
 * time per renewal from the first run's start to the last debit recorded, and the users list's p99
 * while that happens ÷ quiet.
 */
async function runFigures(
  kind: 'pglite' | 'postgres',
  deps: Deps,
  list: Target,
  log: (line: string) => void,
) {
  await load(list, 1, LIST_CONNECTIONS);
  const quiet: LoadResult[] = [];
  for (let i = 0; i < QUIET_ROUNDS; i++) {
    quiet.push(await load(list, LIST_SECONDS, LIST_CONNECTIONS));
    log(`[${kind}] quiet round ${i + 1}: list p99 ${ms(quiet.at(-1)!.p99)} ms`);
  }

  const clock = new ManualClock(new Date(Date.now() - 30 * HOUR_MS));
  deps.clock = clock;
  const actor = systemActor('bench');
  const started = performance.now();
  const running = (async () => {
    const announced = await runRenewals(deps, actor);
    const announcedAt = performance.now();
    clock.set(new Date());
    const queued = await runRenewals(deps, actor);
    return { announced, announcedAt, queued, queuedAt: performance.now() };
  })();
  let finished = false;
  void running.then(
    () => {},
    () => {},
  );

  const busy: LoadResult[] = [];
  for (let i = 0; i < MAX_BUSY_ROUNDS && !finished; i++) {
    const round = await load(list, LIST_SECONDS, LIST_CONNECTIONS);
    const charged = await settledCount(deps);
    finished = charged >= RENEWALS;
    log(
      `[${kind}] busy round ${i + 1}: list p99 ${ms(round.p99)} ms (p50 ${ms(round.p50)}), ${charged} of ${RENEWALS} charged, load average ${loadavg()[0]!.toFixed(2)}`,
    );
    if (!finished) busy.push(round);
  }
  const run = await running;
  log(
    `[${kind}] scheduled and announced ${run.announced.announced} in ${((run.announcedAt - started) / 1000).toFixed(1)} s; queued ${run.queued.charges} debits in ${((run.queuedAt - run.announcedAt) / 1000).toFixed(1)} s`,
  );
  // The debits left after the rounds (if any) finish before the time is taken.
  while ((await settledCount(deps)) < RENEWALS) await new Promise((resolve) => setTimeout(resolve, 200));
  const totalMs = performance.now() - started;
  const perRenewal = totalMs / RENEWALS;

  const quietP99 = median(quiet.map((r) => r.p99));
  const busyP99 = busy.length > 0 ? median(busy.map((r) => r.p99)) : NaN;
  const ratio = busyP99 / quietP99;
  const slotRenewals = Math.floor(SLOT_MS / perRenewal);
  return [
    {
      name: `${kind}: renewal run, ms per renewal (notice, debit, invoice, credits)`,
      value: perRenewal,
      goal: '≤ 90',
      pass: perRenewal <= 90,
      detail: `${RENEWALS.toLocaleString('en')} renewals in ${(totalMs / 1000).toFixed(1)} s; at this rate one 15-minute run renews ${slotRenewals.toLocaleString('en')}`,
    },
    {
      name: `${kind}: list p99 during a renewal run of ${RENEWALS.toLocaleString('en')} ÷ quiet p99`,
      value: ratio,
      goal: '≤ 3',
      pass: ratio <= 3 && busy.length >= MIN_BUSY_ROUNDS,
      detail:
        busy.length === 0
          ? `the run ended within the first round; quiet ${ms(quietP99)} ms`
          : `${ms(busyP99)} vs ${ms(quietP99)} ms; ${busy.length} busy rounds (${ms(Math.min(...busy.map((r) => r.p99)))}–${ms(Math.max(...busy.map((r) => r.p99)))} ms)`,
    },
  ] satisfies Figure[];
}

/**
 * The renewal figures on `kind`: a portal on the 10,000-user data set of the other figures, and
 * RENEWALS organizations on card mandates whose period starts an hour ago. `BENCH_FIGURES=renewals`
 * runs these alone.
 */
export async function benchRenewals(
  kind: 'pglite' | 'postgres',
  postgresUrl: string,
  log: (line: string) => void,
): Promise<Figure[]> {
  const portal = await startPortal(kind, postgresUrl);
  try {
    const { database, deps, adminRoleId, userHash } = portal;
    log(`[${kind}] renewal figures: growing to 10,000 users and 100,000 activity entries`);
    await growUsers(database.db, { from: 1_001, to: 10_000, roleId: adminRoleId, passwordHash: userHash });
    await growActivity(database.db, 100_000);
    await saveBenchSellerProfile(deps);
    const periodStart = new Date(Date.now() - HOUR_MS);
    await createRenewingOrganizations(database.db, {
      count: RENEWALS,
      anchor: addMonths(periodStart, -1),
      firstPeriodStart: periodStart,
      roleId: adminRoleId,
      passwordHash: userHash,
    });
    await deps.jobs.settled(60_000);
    log(`[${kind}] a renewal run of ${RENEWALS} subscriptions`);
    return await runFigures(kind, deps, portal.targets.list, log);
  } finally {
    await portal.close();
  }
}
