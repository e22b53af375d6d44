// The process tenant-day-load.ts forks: the day's admins and interview bots, step by step.
import { setMaxListeners } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool, type Dispatcher } from 'undici';
import type { DriverOptions, FromDriver, RouteFigures, StepReport, ToDriver } from './tenant-day-load.js';
import { ROUTES, runAdmin, runBot, type Route } from './tenant-day-scenario.js';

/** A request slower than this counts as failed (the portal's own API client gives up at 30 s). */
const TIMEOUT_MS = 30_000;
/** How long a step's report waits for the answers to requests started in its window. */
const DRAIN_MS = 60_000;

/** What one step's window saw: requests started in [start, end), recorded as they are answered. */
class Window {
  readonly times = new Map<Route, number[]>(ROUTES.map((r) => [r, []]));
  readonly errors = new Map<Route, number>(ROUTES.map((r) => [r, 0]));
  readonly failures: Record<string, number> = {};
  pending = 0;
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}
}

let options: DriverOptions;
const windows = new Set<Window>();
const running: Promise<void>[] = [];
const dispatchers: Dispatcher[] = [];
const botPools = new Map<string, Pool>();
const stopping = new AbortController();
// Every admin's think time and every bot's wait listens to it: hundreds at once is how it is used.
setMaxListeners(0, stopping.signal);

function record(route: Route, startedAt = performance.now()) {
  const window = [...windows].find((w) => startedAt >= w.start && startedAt < w.end);
  if (window) window.pending++;
  return (ok: boolean, failure?: string) => {
    if (!window) return;
    window.pending--;
    if (ok) window.times.get(route)!.push(performance.now() - startedAt);
    else {
      window.errors.set(route, window.errors.get(route)! + 1);
      const reason = `${route}: ${failure ?? 'failed'}`;
      window.failures[reason] = (window.failures[reason] ?? 0) + 1;
    }
  };
}

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

function figures(window: Window): Record<Route, RouteFigures> {
  return Object.fromEntries(
    ROUTES.map((route) => {
      const times = window.times.get(route)!.sort((a, b) => a - b);
      const errors = window.errors.get(route)!;
      return [
        route,
        { count: times.length + errors, errors, p50: percentile(times, 0.5), p99: percentile(times, 0.99) },
      ];
    }),
  ) as Record<Route, RouteFigures>;
}

const timeouts = { headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS };

/** Organization k's admin (on a connection of its own, as a browser keeps one) and its bot. */
function play(k: number, rampMs: number) {
  const tenant = options.tenants[k];
  if (!tenant) throw new Error(`the data set has ${options.tenants.length} organizations, not ${k + 1}`);
  const base = options.bases[k % options.bases.length]!;
  const browser = new Client(base, { ...timeouts, pipelining: 1 });
  dispatchers.push(browser);
  let bots = botPools.get(base);
  if (!bots) {
    // The interview product's servers: a few connections shared by every organization's bot.
    bots = new Pool(base, { ...timeouts, connections: 32 });
    botPools.set(base, bots);
    dispatchers.push(bots);
  }
  running.push(
    runAdmin({
      dispatcher: browser,
      origin: options.origin,
      accounts: tenant.admins,
      settings: options.settings,
      record: (route) => record(route),
      signal: stopping.signal,
      startAfterMs: Math.random() * rampMs,
    }),
    runBot({
      dispatcher: bots,
      apiKey: tenant.apiKey,
      rate: options.botRate,
      name: `${options.runId}-${k}`,
      record,
      signal: stopping.signal,
      startAfterMs: Math.random() * Math.min(rampMs, 1000 / options.botRate),
    }),
  );
}

let playing = 0;

async function step(admins: number, rampSeconds: number, seconds: number): Promise<StepReport> {
  if (playing < admins) {
    for (; playing < admins; playing++) play(playing, rampSeconds * 1000);
    await sleep(rampSeconds * 1000);
  }
  const start = performance.now();
  const window = new Window(start, start + seconds * 1000);
  windows.add(window);
  // A late timer here makes the bots' debits late, which their times count: this tells how late.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await sleep(seconds * 1000);
  delay.disable();
  const deadline = performance.now() + DRAIN_MS;
  while (window.pending > 0 && performance.now() < deadline) await sleep(50);
  windows.delete(window);
  if (window.pending > 0) window.failures[`unanswered after ${DRAIN_MS / 1000} s`] = window.pending;
  return {
    admins,
    seconds,
    routes: figures(window),
    failures: window.failures,
    driverDelayP99: delay.percentile(99) / 1e6,
  };
}

async function stop(): Promise<void> {
  stopping.abort();
  await Promise.all(running);
  await Promise.all(dispatchers.map((d) => d.close()));
}

async function handle(message: ToDriver): Promise<FromDriver> {
  switch (message.kind) {
    case 'start':
      options = message.options;
      return { kind: 'ready' };
    case 'step':
      return { kind: 'step', report: await step(message.admins, message.rampSeconds, message.seconds) };
    case 'stop':
      await stop();
      return { kind: 'stopped' };
  }
}

process.on('message', (message: ToDriver) => {
  void handle(message).then(
    (reply) => process.send!(reply),
    (error: unknown) =>
      process.send!({
        kind: 'failed',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies FromDriver),
  );
});
// The bench went away without stopping it (killed, crashed): nobody is left to report to.
process.on('disconnect', () => process.exit(0));
