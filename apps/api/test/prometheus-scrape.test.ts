import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killPortals, startPortal } from './portal-process.js';
import { usePostgres } from './test-database.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const opsDir = join(repo, 'ops');
const rulesFile = join(opsDir, 'prometheus/portal-alerts.yml');
const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';

/**
 * Debian's prometheus package, installed as the test scripts install their tools (scripts/test.sh
 * ensures it first). Answers why it is missing, or null when it is there.
 */
function ensurePrometheus(): string | null {
  if (existsSync(PROMETHEUS) && existsSync(PROMTOOL)) return null;
  const run = spawnSync('bash', [join(repo, 'scripts/ensure-debian-packages.sh'), 'prometheus'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (existsSync(PROMETHEUS) && existsSync(PROMTOOL)) return null;
  const said = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim() || String(run.error ?? `exit ${run.status}`);
  return `Debian's prometheus package could not be installed (apt-get): ${said.slice(-400)}`;
}

/** The metrics ops/README.md documents, from its table. */
function documentedMetrics(): string[] {
  const readme = readFileSync(join(opsDir, 'README.md'), 'utf8');
  return [...readme.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((match) => match[1]!);
}

function promtool(args: string[], cwd = repo) {
  const run = spawnSync(PROMTOOL, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `read` until it answers something other than undefined, or fails after `timeoutMs`. */
async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${String(last ?? 'no value')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let folder = '';
let prometheus: ChildProcess | undefined;
let prometheusLog = '';
let unavailable: string | null = null;

beforeAll(() => {
  unavailable = ensurePrometheus();
  folder = mkdtempSync(join(tmpdir(), 'portal-prometheus-'));
});

afterAll(async () => {
  try {
    if (prometheus && prometheus.exitCode === null && prometheus.signalCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGKILL');
      await exited;
    }
    await killPortals();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

describe('the shipped alert rules', () => {
  it('pass promtool check rules, and each alert fires on its unit test series', async (context) => {
    if (unavailable) return context.skip(unavailable);
    const checked = promtool(['check', 'rules', rulesFile]);
    expect(checked.status, checked.output).toBe(0);
    expect(checked.output).toContain('SUCCESS: 14 rules found');
    const tested = promtool(['test', 'rules', 'portal-alerts.test.yml'], join(opsDir, 'prometheus'));
    expect(tested.status, tested.output).toBe(0);
  });
});

// One portal process on an embedded data folder: the scrape path is the same on PostgreSQL, whose
// pool and statements metrics.test.ts checks in process.
describe.skipIf(usePostgres)('a real Prometheus scraping the portal', () => {
  it('finds the target up, every documented metric with a value and every rule evaluating', async (context) => {
    if (unavailable) return context.skip(unavailable);
    const port = await freePort();
    const portal = await startPortal({
      DATA_DIR: join(folder, 'data'),
      // The embedded database's socket folder too goes in the test's folder, removed whatever happens.
      TMPDIR: folder,
      PORT: String(port),
      METRICS_PORT: '0',
      ADMIN_EMAIL: 'boss@portal.test',
      ADMIN_PASSWORD: 'Boss-Passw0rd!',
    });
    const scrapeUrl = /Metrics \(Prometheus\): (http:\/\/\S+)/.exec(portal.output())?.[1];
    expect(scrapeUrl, portal.output()).toBeDefined();
    const target = new URL(scrapeUrl!);

    // Something to count: a health check, an unknown path, a refused sign-in, a mail delivered by a job.
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect((await fetch(`${base}/api/no-such-route/42`)).status).toBe(404);
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await post('/api/auth/auth-session/login', {
      identifier: 'boss@portal.test',
      password: 'not-the-password',
    });
    expect(refused.status).toBe(401);
    expect((await post('/api/auth/forgot-password', { email: 'boss@portal.test' })).status).toBe(200);

    const prometheusPort = await freePort();
    const config = join(folder, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'rule_files:',
        `  - ${JSON.stringify(rulesFile)}`,
        'scrape_configs:',
        '  - job_name: portal',
        '    static_configs:',
        `      - targets: [${JSON.stringify(target.host)}]`,
        '',
      ].join('\n'),
    );
    const checked = promtool(['check', 'config', config]);
    expect(checked.status, checked.output).toBe(0);

    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(folder, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${prometheusPort}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } },
    );
    prometheus.stdout!.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
    prometheus.stderr!.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
    const api = `http://127.0.0.1:${prometheusPort}`;
    await until('Prometheus to be ready', async () =>
      (await fetch(`${api}/-/ready`)).ok ? true : undefined,
    );

    const targetHealth = await until('the portal target to be scraped', async () => {
      const body = (await (await fetch(`${api}/api/v1/targets`)).json()) as {
        data: { activeTargets: { health: string; lastError: string; scrapeUrl: string }[] };
      };
      const [active] = body.data.activeTargets;
      return active && active.health !== 'unknown' ? active : undefined;
    });
    expect(targetHealth, prometheusLog).toMatchObject({ health: 'up', lastError: '', scrapeUrl: scrapeUrl });

    /** The values of an instant query's series, once it has at least one. */
    const query = (promql: string) =>
      until(promql, async () => {
        const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
        const body = (await res.json()) as {
          status: string;
          error?: string;
          data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
        };
        if (body.status !== 'success') throw new Error(body.error);
        const values = body.data!.result.map((series) => Number(series.value[1]));
        return values.length > 0 ? values : undefined;
      });

    const metrics = documentedMetrics();
    expect(metrics.length).toBeGreaterThanOrEqual(24);
    for (const name of metrics) {
      const values = await query(`{__name__=~"${name}|${name}_count", job="portal"}`);
      expect(values.every(Number.isFinite), name).toBe(true);
    }

    expect(await query('up{job="portal"}')).toEqual([1]);
    expect(await query('portal_sign_ins_total{outcome="refused"}')).toEqual([1]);
    expect(await query('sum(portal_http_request_duration_seconds_count{route="/api/health"})')).toEqual([1]);
    expect(await query('sum(portal_http_request_duration_seconds_count{route="unmatched"})')).toEqual([1]);
    // No series is labelled with a path no route matched.
    expect(
      await query('count(portal_http_request_duration_seconds_count{route=~".*42.*"}) or vector(0)'),
    ).toEqual([0]);
    expect(
      await until('the mail job to have run', async () => {
        const [runs] = await query('portal_job_runs_total{queue="mail.deliver", outcome="succeeded"}');
        return runs! >= 1 ? runs : undefined;
      }),
    ).toBe(1);
    const [lag] = await query('nodejs_eventloop_lag_p99_seconds');
    expect(lag).toBeGreaterThan(0);
    expect(lag).toBeLessThan(5);
    const [connections] = await query('portal_db_pool_connections');
    expect(connections).toBe(1);

    // Every shipped rule evaluates on the real series without an error.
    const rules = await until('every rule to be evaluated', async () => {
      const body = (await (await fetch(`${api}/api/v1/rules`)).json()) as {
        data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] };
      };
      const all = body.data.groups.flatMap((group) => group.rules);
      return all.length > 0 && all.every((rule) => rule.health !== 'unknown') ? all : undefined;
    });
    expect(rules).toHaveLength(14);
    expect(rules.filter((rule) => rule.health !== 'ok')).toEqual([]);

    // The scrape port closes with the portal: SIGTERM still ends it cleanly.
    portal.child.kill('SIGTERM');
    expect(await portal.exited).toBe(0);
    await expect(fetch(scrapeUrl!)).rejects.toThrow();
  }, 180_000);
});
