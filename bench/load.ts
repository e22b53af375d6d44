import autocannon from 'autocannon';

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
}

/**
 * Drives `target` for `seconds` with `connections` clients. Percentiles come from each 2xx response's
 * own time: autocannon's histogram keeps whole milliseconds, and a list answers in 3 to 6 ms on
 * PostgreSQL, so a ratio of its percentiles moved in steps of a quarter or a third.
 */
export async function load(target: Target, seconds: number, connections = 10): Promise<LoadResult> {
  const latencies: number[] = [];
  // Without a callback autocannon answers its instance, an event emitter that is also a promise.
  const run = autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections,
    duration: seconds,
  }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
  run.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await run;
  latencies.sort((a, b) => a - b);
  const errors = result.errors + result.non2xx + result.timeouts;
  return {
    rps: result.requests.average,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors,
  };
}

/** The nearest-rank percentile of sorted values (NaN for none). */
export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A measurement other than an HTTP target (in-process hashing, say), run for `seconds`. */
export type Measure = (seconds: number) => Promise<LoadResult>;

export type Statistic = 'rps' | 'p50' | 'p99';

const run = (target: Target | Measure, seconds: number) =>
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
  for (const target of Object.values(targets)) await run(target, options.warmup);
  const runs: Record<string, LoadResult[]> = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  const entries = Object.entries(targets);
  for (let round = 0; round < options.rounds; round++) {
    for (let i = 0; i < entries.length; i++) {
      const [name, target] = entries[(round + i) % entries.length]!;
      runs[name]!.push(await run(target, options.seconds));
    }
  }
  return new Comparison(runs);
}
