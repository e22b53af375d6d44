import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Deps } from '../apps/api/src/core/deps.js';
import { inviteMail } from '../apps/api/src/modules/users/invite-mail.js';
import { startPortal, type Figure } from './api-bench.js';
import { growActivity, growUsers } from './dataset.js';
import { load, median, type LoadResult, type Target } from './load.js';
import { startPeerProcess, type PeerProcess } from './smtp-peer-process.js';

/** The throughput figure's mails, queued in transactions of PER_TRANSACTION. */
const THROUGHPUT_MAILS = 2_000;
const PER_TRANSACTION = 100;
/** The drain figure's mails, queued in one transaction so that all are pending when its rounds start. */
const DRAIN_MAILS = 10_000;
/** Sends in flight at once on the direct side: the mail job's batch (mail-delivery.job.ts). */
const DIRECT_CONCURRENCY = 10;
/**
 * core/mail.ts's defaults for SMTP_URL (its smtpTransportUrl is not exported): the pooled transport
 * the delivery job sends through, so the direct side sends as the job does.
 */
const POOLED_TRANSPORT =
  'pool=true&maxConnections=5&connectionTimeout=15000&greetingTimeout=15000&socketTimeout=30000';
/** The list's rounds as the other p99 figures take them: 4 s, 5 connections. */
const LIST_SECONDS = 4;
const LIST_CONNECTIONS = 5;
const QUIET_ROUNDS = 5;
/** Busy rounds stop at the drain's end or after this many; a round counts if mails were pending at its end. */
const MAX_BUSY_ROUNDS = 10;
/** Fewer counted busy rounds than this and the drain figure is not taken. */
const MIN_BUSY_ROUNDS = 3;
/** Longest wait for a side's mails to arrive. */
const ARRIVAL_TIMEOUT_MS = 15 * 60_000;

const ms = (value: number) => value.toFixed(2);
const perSecond = (count: number, fromMs: number, toMs: number) => count / ((toMs - fromMs) / 1000);

/** An invitation as the users module writes it, to its own address, with a link of the real length. */
function benchMail(tag: string, i: number) {
  const link = `http://127.0.0.1/set-password?token=${randomBytes(32).toString('base64url')}`;
  return inviteMail(`bench-mail-${tag}-${i}@bench.test`, link);
}

/** What a stretch of work cost this process (the portal, its job worker, PGlite's thread): cores busy. */
async function withCpu<T>(work: () => Promise<T>): Promise<{ value: T; cpu: number }> {
  const started = process.cpuUsage();
  const at = performance.now();
  const value = await work();
  const used = process.cpuUsage(started);
  return { value, cpu: (used.user + used.system) / 1000 / (performance.now() - at) };
}

const percent = (cpu: number) => `${(cpu * 100).toFixed(0)}%`;

/** Waits for the peer to hold `count` messages, logging its progress every 30 s; answers when it did. */
async function arrival(peer: PeerProcess, count: number, progress: (received: number) => void) {
  const timer = setInterval(() => {
    peer.count().then(progress, () => {});
  }, 30_000);
  try {
    return await peer.waitFor(count, ARRIVAL_TIMEOUT_MS);
  } finally {
    clearInterval(timer);
  }
}

/** Writes `count` mails to the outbox and queues them, `perTransaction` a transaction; answers when the first committed. */
async function queueMails(deps: Deps, count: number, perTransaction: number, tag: string): Promise<number> {
  let firstCommitted = 0;
  for (let from = 0; from < count; from += perTransaction) {
    await deps.db.transaction(async (tx) => {
      for (let i = from; i < Math.min(count, from + perTransaction); i++) {
        await deps.mailer.enqueue(tx, benchMail(tag, i));
      }
    });
    firstCommitted ||= Date.now();
  }
  return firstCommitted;
}

/** `count` mails through the pooled transport, DIRECT_CONCURRENCY at a time: mails/s until the peer has all. */
async function sendDirect(
  transport: Transporter,
  from: string,
  peer: PeerProcess,
  count: number,
  tag: string,
): Promise<number> {
  const target = (await peer.count()) + count;
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: DIRECT_CONCURRENCY }, async () => {
      while (next < count) {
        const mail = benchMail(tag, next++);
        await transport.sendMail({ from, ...mail, messageId: `<${randomUUID()}@127.0.0.1>` });
      }
    }),
  );
  return perSecond(count, started, await peer.waitFor(target, ARRIVAL_TIMEOUT_MS));
}

/**
 * Mail jobs per second: THROUGHPUT_MAILS queued as the portal queues them, from the first commit until
 * the peer has them all, against the same number sent directly just before and just after.
 */
async function throughputFigure(
  kind: 'pglite' | 'postgres',
  deps: Deps,
  peer: PeerProcess,
  log: (line: string) => void,
): Promise<Figure> {
  const transport = nodemailer.createTransport(`${peer.url}?${POOLED_TRANSPORT}`);
  try {
    const direct = (tag: string) =>
      withCpu(() => sendDirect(transport, deps.env.MAIL_FROM, peer, THROUGHPUT_MAILS, tag));
    // Warm-up of both sides: connections opened, code paths compiled.
    await sendDirect(transport, deps.env.MAIL_FROM, peer, 200, 'warm-direct');
    const warm = (await peer.count()) + 200;
    await queueMails(deps, 200, PER_TRANSACTION, 'warm-jobs');
    await peer.waitFor(warm, ARRIVAL_TIMEOUT_MS);
    await deps.jobs.settled(60_000);

    const before = await direct('direct-before');
    log(`[${kind}] direct: ${before.value.toFixed(1)} mails/s, process CPU ${percent(before.cpu)}`);

    const target = (await peer.count()) + THROUGHPUT_MAILS;
    const queueStarted = Date.now();
    const jobs = await withCpu(async () => {
      const waiting = arrival(peer, target, (received) =>
        log(`[${kind}] jobs: ${received - (target - THROUGHPUT_MAILS)} of ${THROUGHPUT_MAILS} arrived`),
      );
      const firstCommitted = await queueMails(deps, THROUGHPUT_MAILS, PER_TRANSACTION, 'jobs');
      const queued = Date.now();
      return { firstCommitted, queued, arrived: await waiting };
    });
    const jobsRate = perSecond(THROUGHPUT_MAILS, jobs.value.firstCommitted, jobs.value.arrived);
    const queuedSeconds = (jobs.value.queued - queueStarted) / 1000;
    const jobsSeconds = (jobs.value.arrived - jobs.value.firstCommitted) / 1000;
    log(
      `[${kind}] jobs: ${jobsRate.toFixed(1)} mails/s (${jobsSeconds.toFixed(1)} s; queued in ${queuedSeconds.toFixed(1)} s), process CPU ${percent(jobs.cpu)}`,
    );
    // The last jobs are marked done before the direct side runs again.
    await deps.jobs.settled(60_000);

    const after = await direct('direct-after');
    log(`[${kind}] direct: ${after.value.toFixed(1)} mails/s, process CPU ${percent(after.cpu)}`);
    const directRate = (before.value + after.value) / 2;
    const ratio = jobsRate / directRate;
    return {
      name: `${kind}: mail jobs/s ÷ direct nodemailer sends/s`,
      value: ratio,
      goal: '≥ 0.5',
      pass: ratio >= 0.5,
      detail: `${jobsRate.toFixed(1)} vs ${directRate.toFixed(1)} mails/s (direct before ${before.value.toFixed(1)}, after ${after.value.toFixed(1)}); ${THROUGHPUT_MAILS} jobs in ${jobsSeconds.toFixed(1)} s from the first commit, queued in ${queuedSeconds.toFixed(1)} s; process CPU ${percent(jobs.cpu)} with jobs, ${percent((before.cpu + after.cpu) / 2)} direct`,
    };
  } finally {
    transport.close();
  }
}

interface ListRound {
  result: LoadResult;
  cpu: number;
  /** The event loop's delay, p99 in ms. */
  loopDelay: number;
}

async function listRound(list: Target): Promise<ListRound> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const { value, cpu } = await withCpu(() => load(list, LIST_SECONDS, LIST_CONNECTIONS));
  delay.disable();
  return { result: value, cpu, loopDelay: delay.percentile(99) / 1e6 };
}

const describeRound = (round: ListRound) =>
  `list p99 ${ms(round.result.p99)} ms (p50 ${ms(round.result.p50)}), process CPU ${percent(round.cpu)}, event-loop delay p99 ${ms(round.loopDelay)} ms, load average ${loadavg()[0]!.toFixed(2)}`;

/**
 * The list's p99 while DRAIN_MAILS are delivered ÷ quiet: QUIET_ROUNDS quiet rounds, then the mails
 * queued at once and rounds while they drain; only rounds that ended with mails still pending count.
 */
async function drainFigure(
  kind: 'pglite' | 'postgres',
  deps: Deps,
  peer: PeerProcess,
  list: Target,
  log: (line: string) => void,
): Promise<Figure> {
  await load(list, 1, LIST_CONNECTIONS);
  const quiet: ListRound[] = [];
  for (let i = 0; i < QUIET_ROUNDS; i++) {
    quiet.push(await listRound(list));
    log(`[${kind}] quiet round ${i + 1}: ${describeRound(quiet.at(-1)!)}`);
  }

  const before = await peer.count();
  const pending = async () => DRAIN_MAILS - ((await peer.count()) - before);
  const queueStarted = Date.now();
  await queueMails(deps, DRAIN_MAILS, DRAIN_MAILS, 'drain');
  log(
    `[${kind}] ${DRAIN_MAILS} mails queued in one transaction in ${((Date.now() - queueStarted) / 1000).toFixed(1)} s`,
  );

  const busy: ListRound[] = [];
  const drainRates: number[] = [];
  let firstPending = 0;
  let lastPending = 0;
  for (let i = 0; i < MAX_BUSY_ROUNDS; i++) {
    const startPending = await pending();
    const started = Date.now();
    const round = await listRound(list);
    const endPending = await pending();
    const rate = perSecond(startPending - endPending, started, Date.now());
    log(
      `[${kind}] busy round ${i + 1}: ${describeRound(round)}; pending ${startPending} → ${endPending}, ${rate.toFixed(1)} mails/s`,
    );
    if (endPending === 0) {
      log(`[${kind}] the mails drained within that round: not counted`);
      break;
    }
    if (busy.length === 0) firstPending = startPending;
    lastPending = endPending;
    busy.push(round);
    drainRates.push(rate);
  }
  const errors = [...quiet, ...busy].reduce((sum, r) => sum + r.result.errors, 0);
  if (errors > 0) log(`[${kind}] WARNING: ${errors} failed requests during the drain figure's rounds`);

  const quietP99 = median(quiet.map((r) => r.result.p99));
  const busyP99 = busy.length > 0 ? median(busy.map((r) => r.result.p99)) : NaN;
  const ratio = busyP99 / quietP99;
  const range = (rounds: ListRound[]) =>
    `${ms(Math.min(...rounds.map((r) => r.result.p99)))}–${ms(Math.max(...rounds.map((r) => r.result.p99)))}`;
  const cpu = (rounds: ListRound[]) => percent(median(rounds.map((r) => r.cpu)));
  return {
    name: `${kind}: list p99 while ${DRAIN_MAILS.toLocaleString('en')} mails drain ÷ quiet p99`,
    value: ratio,
    goal: '≤ 2',
    pass: ratio <= 2 && busy.length >= MIN_BUSY_ROUNDS,
    detail:
      busy.length === 0
        ? `no round ended with mails pending; quiet ${ms(quietP99)} ms`
        : `${ms(busyP99)} vs ${ms(quietP99)} ms (busy rounds ${range(busy)}, quiet ${range(quiet)}); ${busy.length} busy rounds, pending ${firstPending} → ${lastPending}, ${median(drainRates).toFixed(1)} mails/s drained; process CPU ${cpu(busy)} busy, ${cpu(quiet)} quiet`,
  };
}

/**
 * The mail figures on `kind`: a portal whose SMTP_URL is a local peer in its own process, on the
 * 10,000-user data set of the other figures. `BENCH_FIGURES=jobs` runs these alone.
 */
export async function benchJobs(
  kind: 'pglite' | 'postgres',
  postgresUrl: string,
  log: (line: string) => void,
): Promise<Figure[]> {
  const closing: (() => Promise<void>)[] = [];
  try {
    const peer = await startPeerProcess();
    closing.push(peer.close);
    const portal = await startPortal(kind, postgresUrl, { smtpUrl: peer.url });
    closing.push(portal.close);
    const { database, deps, adminRoleId, userHash } = portal;
    log(`[${kind}] mail figures: growing to 10,000 users and 100,000 activity entries`);
    await growUsers(database.db, { from: 1_001, to: 10_000, roleId: adminRoleId, passwordHash: userHash });
    await growActivity(database.db, 100_000);
    // What setting the portal up sent (the administrator's second factor) is out of the way first.
    await deps.jobs.settled(60_000);

    log(`[${kind}] mail jobs/s against direct nodemailer sends/s`);
    const throughput = await throughputFigure(kind, deps, peer, log);
    log(`[${kind}] list p99 while ${DRAIN_MAILS} mails drain`);
    const drain = await drainFigure(kind, deps, peer, portal.targets.list, log);
    return [throughput, drain];
  } finally {
    for (const close of closing.reverse()) await close();
  }
}
