import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { AdminSettings, Route } from './tenant-day-scenario.js';

export interface DriverOptions {
  /** The portal processes' addresses; admin k and its organization's bot use `bases[k % length]`. */
  bases: string[];
  /** The portals' PUBLIC_URL: the Origin of the browsers' writes. */
  origin: string;
  /** Organization k's admin accounts and API key; step n plays the first n. */
  tenants: { admins: string[]; apiKey: string }[];
  settings: AdminSettings;
  /** Each playing organization's bot: debits per second. */
  botRate: number;
  /** Makes the bots' references unique across runs on one database. */
  runId: string;
}

export interface RouteFigures {
  count: number;
  errors: number;
  /** ms; null when nothing was answered (they cross the IPC channel as JSON, which has no NaN). */
  p50: number | null;
  p99: number | null;
}

export interface StepReport {
  admins: number;
  seconds: number;
  routes: Record<Route, RouteFigures>;
  /** Why requests failed, with how often: a status, or the client's error. */
  failures: Record<string, number>;
  /** The driver's own event-loop delay in the window, p99 in ms: how late its timers ran. */
  driverDelayP99: number;
}

export type ToDriver =
  | { kind: 'start'; options: DriverOptions }
  | { kind: 'step'; admins: number; rampSeconds: number; seconds: number }
  | { kind: 'stop' };

export type FromDriver =
  | { kind: 'ready' }
  | { kind: 'step'; report: StepReport }
  | { kind: 'stopped' }
  | { kind: 'failed'; message: string };

export interface TenantDayLoad {
  /**
   * Brings the admins playing (and their organizations' bots) up to `admins`, the newcomers arriving
   * over `rampSeconds`, then measures `seconds`: every request started in that window, once answered.
   */
  step(admins: number, rampSeconds: number, seconds: number): Promise<StepReport>;
  /** Stops every admin and bot, waits for their last answers, and ends the process. */
  close(): Promise<void>;
}

/**
 * The day's load from a process of its own (tenant-day-client.ts), so the clients' work stays off
 * the portals' event loops, as wrk's does (docs/decisions/008).
 */
export async function startTenantDayLoad(options: DriverOptions): Promise<TenantDayLoad> {
  const child = fork(fileURLToPath(new URL('./tenant-day-client.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const ask = (message: ToDriver) =>
    new Promise<FromDriver>((resolve, reject) => {
      const gone = (code: number | null) => reject(new Error(`the tenant-day driver exited (${code})`));
      child.once('exit', gone);
      child.once('message', (reply) => {
        child.off('exit', gone);
        resolve(reply as FromDriver);
      });
      child.send(message);
    });
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill();
    await exited;
  };
  const ready = await ask({ kind: 'start', options }).catch(async (error: unknown) => {
    await kill();
    throw error;
  });
  if (ready.kind !== 'ready') {
    await kill();
    throw new Error(`the tenant-day driver did not start: ${JSON.stringify(ready)}`);
  }
  return {
    async step(admins, rampSeconds, seconds) {
      const reply = await ask({ kind: 'step', admins, rampSeconds, seconds });
      if (reply.kind !== 'step') throw new Error(`tenant-day step: ${JSON.stringify(reply)}`);
      return reply.report;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // The admins and bots stop within a think time and their last answers; after that, it is stuck.
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      try {
        await ask({ kind: 'stop' }).catch(() => undefined);
        await kill();
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
