import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Each request says it comes from one of this many addresses in turn (X-Forwarded-For, 10.0.0.0/8). */
  addresses?: number;
}

const execFileAsync = promisify(execFile);
const REPORT_SCRIPT = fileURLToPath(new URL('./wrk-report.lua', import.meta.url));

/**
 * Drives `target` for `seconds` with `connections` clients of wrk (Debian's package, one thread), in
 * wrk's own process, as a client elsewhere would: autocannon inside this process parsed every answer
 * on the server's event loop and flattered the figures (docs/decisions/008). wrk's histogram keeps
 * microseconds. Failed requests: connection errors, timeouts and answers of status 400 or above.
 */
export async function load(target: Target, seconds: number, connections = 10): Promise<LoadResult> {
  const headers = Object.entries(target.headers ?? {}).flatMap(([name, value]) => [
    '--header',
    `${name}: ${value}`,
  ]);
  const { stdout } = await execFileAsync(
    'wrk',
    [
      '--threads=1',
      `--connections=${connections}`,
      `--duration=${seconds}s`,
      '--timeout=10s',
      `--script=${REPORT_SCRIPT}`,
      ...headers,
      target.url,
    ],
    {
      env: {
        ...process.env,
        WRK_METHOD: target.method ?? 'GET',
        WRK_BODY: target.body ?? '',
        WRK_ADDRESSES: String(target.addresses ?? 0),
      },
    },
  );
  const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    requests: number;
    durationUs: number;
    failed: number;
    p50Us: number;
    p99Us: number;
  };
  return {
    rps: report.requests / (report.durationUs / 1e6),
    p50: report.p50Us / 1000,
    p99: report.p99Us / 1000,
    errors: report.failed,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A measurement other than an HTTP target (in-process hashing, say), run for `seconds`. */
export type Measure = (seconds: number) => Promise<LoadResult>;

export type Statistic = 'rps' | 'p50' | 'p99';

const measure = (target: Target | Measure, seconds: number) =>
  typeof target === 'function' ? target(seconds) : load(target, seconds);

/** What `compare` measured: every round of every target. */
export class Comparison {
  constructor(readonly runs: Record<string, LoadResult[]>) {}

  /** A target's statistic, the median over the rounds. */
  median(target: string, statistic: Statistic): number {
    return median(this.results(target).map((r) => r[statistic]));
  }

  /**
   * `a`'s statistic ÷ `b`'s, taken within each round, then the median over the rounds. The two run
   * seconds apart in a round, so a slow spell of a shared machine (seen here: every target at half
   * its rate for ten seconds) lands on both sides of that round's ratio instead of on one median.
   */
  ratio(a: string, b: string, statistic: Statistic): number {
    return median(this.roundRatios(a, b, statistic));
  }

  /** The lowest and highest of the rounds' ratios, for a detail column: how far one round can stray. */
  spread(a: string, b: string, statistic: Statistic): string {
    const ratios = this.roundRatios(a, b, statistic);
    return `rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
  }

  private roundRatios(a: string, b: string, statistic: Statistic): number[] {
    const over = this.results(b);
    return this.results(a).map((r, round) => r[statistic] / over[round]![statistic]);
  }

  get errors(): number {
    return Object.values(this.runs)
      .flat()
      .reduce((sum, r) => sum + r.errors, 0);
  }

  private results(target: string): LoadResult[] {
    const results = this.runs[target];
    if (!results) throw new Error(`no target named ${target}`);
    return results;
  }
}

/**
 * Runs the targets in turn, `rounds` times, after a warm-up. Interleaved so drift in the machine's
 * load hits each alike, and each round starts one target further on, so no target always runs first
 * (after the warm-up) or right after the same neighbour.
 */
export async function compare(
  targets: Record<string, Target | Measure>,
  options: { seconds: number; rounds: number; warmup: number },
): Promise<Comparison> {
  for (const target of Object.values(targets)) await measure(target, options.warmup);
  const runs: Record<string, LoadResult[]> = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  const entries = Object.entries(targets);
  for (let round = 0; round < options.rounds; round++) {
    for (let i = 0; i < entries.length; i++) {
      const [name, target] = entries[(round + i) % entries.length]!;
      runs[name]!.push(await measure(target, options.seconds));
    }
  }
  return new Comparison(runs);
}
