import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { compare, Comparison, load, type LoadResult, type Measure } from './load.js';

const result = (rps: number, p99 = 1): LoadResult => ({ rps, p50: p99 / 2, p99, errors: 0 });

describe('Comparison', () => {
  it('takes a ratio within each round, so a slow spell of the machine does not move it', () => {
    // Rounds 0 to 2 of a and 0 to 1 of b ran while the machine was slow (at half speed); a is 0.8 of
    // b whenever both ran alike. The ratio of the two medians would say 0.4.
    const c = new Comparison({
      a: [result(400), result(400), result(400), result(800), result(800)],
      b: [result(500), result(500), result(1000), result(1000), result(1000)],
    });
    expect(c.ratio('a', 'b', 'rps')).toBeCloseTo(0.8);
    expect(c.median('a', 'rps') / c.median('b', 'rps')).toBeCloseTo(0.4);
  });

  it('answers the median of the rounds’ ratios, not of a lucky or unlucky one', () => {
    const c = new Comparison({
      a: [result(0, 3), result(0, 1), result(0, 2)],
      b: [result(0, 1), result(0, 1), result(0, 1)],
    });
    expect(c.ratio('a', 'b', 'p99')).toBe(2);
  });

  it('shows how far the rounds’ ratios spread', () => {
    const c = new Comparison({
      a: [result(9), result(7), result(8)],
      b: [result(10), result(10), result(10)],
    });
    expect(c.spread('a', 'b', 'rps')).toBe('rounds 0.70–0.90');
  });

  it('refuses a target it did not measure', () => {
    const c = new Comparison({ a: [result(1)] });
    expect(() => c.ratio('a', 'nope', 'rps')).toThrow(/nope/);
  });

  it('sums the failed requests of every round', () => {
    const c = new Comparison({ a: [{ ...result(1), errors: 2 }], b: [{ ...result(1), errors: 3 }] });
    expect(c.errors).toBe(5);
  });
});

describe('compare', () => {
  it('warms each target up, then runs rounds that each start one target further on', async () => {
    const order: string[] = [];
    const measure =
      (name: string): Measure =>
      async (seconds) => {
        order.push(`${name}${seconds}`);
        return result(1);
      };
    const c = await compare({ a: measure('a'), b: measure('b') }, { seconds: 3, rounds: 3, warmup: 1 });
    expect(order).toEqual(['a1', 'b1', 'a3', 'b3', 'b3', 'a3', 'a3', 'b3']);
    expect(c.runs.a).toHaveLength(3);
  });
});

describe('load', () => {
  it('drives a target with wrk: its method, headers and body arrive, and failed answers are counted', async () => {
    const seen = new Set<string>();
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => {
        seen.add(`${request.method} ${request.headers['x-bench']} ${body}`);
        response.statusCode = request.url === '/fails' ? 503 : 200;
        response.end('{}');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const posted = await load(
        { url: `${base}/ok`, method: 'POST', headers: { 'x-bench': 'yes' }, body: '{"a":1}' },
        1,
        2,
      );
      expect([...seen]).toEqual(['POST yes {"a":1}']);
      expect(posted.rps).toBeGreaterThan(0);
      expect(posted.errors).toBe(0);
      expect(posted.p50).toBeGreaterThan(0);
      expect(posted.p99).toBeGreaterThanOrEqual(posted.p50);

      const failing = await load({ url: `${base}/fails` }, 1, 2);
      // Every answer failed: about a second's worth of requests, at the rate measured.
      expect(failing.errors).toBeGreaterThan(0.9 * failing.rps);
    } finally {
      server.close();
    }
  });
});
