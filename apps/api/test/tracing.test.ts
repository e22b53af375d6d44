import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../src/core/tracing/index.js';
import type { TestContext } from './harness.js';

/** A pino destination that keeps each line, parsed. */
function lineCollector() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

const scopeOf = (span: ReadableSpan) => span.instrumentationScope.name;

describe('traces with OpenTelemetry', () => {
  const exporter = new InMemorySpanExporter();
  const logs = lineCollector();
  let tracing: Tracing;
  let ctx: TestContext;
  let origin: string;
  let harness: typeof import('./harness.js');

  beforeAll(async () => {
    tracing = startTracing({ exporter, batch: false });
    // The app's modules (pg among them) load after the instrumentations are on, as in server.ts.
    harness = await import('./harness.js');
    ctx = await harness.createTestApp({}, { tracing, logger: { level: 'info', stream: logs.stream } });
    // Through a real socket: app.inject() bypasses the http server, which the http instrumentation traces.
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await ctx?.close();
    await tracing?.shutdown();
  });

  it('spans HTTP, the route and its SQL in one trace, and the request’s log lines carry its trace id', async () => {
    const session = await harness.signIn(ctx.app);
    exporter.reset();
    const cookie = [...session.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${origin}/api/auth/users`, { headers: { cookie } });
    expect(response.status).toBe(200);

    const spans = exporter.getFinishedSpans();
    const server = spans.find(
      (s) =>
        scopeOf(s) === '@opentelemetry/instrumentation-http' &&
        s.kind === SpanKind.SERVER &&
        s.attributes['url.path'] === '/api/auth/users',
    );
    expect(server, 'an HTTP server span').toBeDefined();
    const traceId = server!.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const route = inTrace.filter((s) => scopeOf(s) === '@fastify/otel');
    expect(route.map((s) => s.name)).toEqual(expect.arrayContaining(['request', 'handler - usersRoutes']));
    expect(route.find((s) => s.name === 'request')!.attributes['http.route']).toBe('/api/auth/users');
    const sql = inTrace.filter((s) => scopeOf(s) === '@opentelemetry/instrumentation-pg');
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.some((s) => String(s.attributes['db.query.text']).includes('from "users"'))).toBe(true);

    const requestLines = logs.lines.filter(
      (line) => (line.req as { url?: string } | undefined)?.url === '/api/auth/users',
    );
    expect(requestLines.length).toBe(1);
    const lines = logs.lines.filter((line) => line.reqId === requestLines[0]!.reqId);
    // "incoming request" and "request completed" at least.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line.trace_id).toBe(traceId);
  });

  it('runs a job queued in a request in that request’s trace', async () => {
    exporter.reset();
    const response = await fetch(`${origin}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ email: harness.ADMIN_EMAIL }),
    });
    expect(response.status).toBe(200);
    await ctx.app.deps.jobs.settled();

    const spans = exporter.getFinishedSpans();
    const server = spans.find(
      (s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === '/api/auth/forgot-password',
    );
    expect(server).toBeDefined();
    const traceId = server!.spanContext().traceId;
    const jobs = spans.filter((s) => s.name.startsWith('job '));
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) expect(job.spanContext().traceId).toBe(traceId);
    // The job's own statements are in the trace too, below its span.
    const jobIds = new Set(jobs.map((s) => s.spanContext().spanId));
    expect(
      spans.some(
        (s) =>
          scopeOf(s) === '@opentelemetry/instrumentation-pg' && jobIds.has(s.parentSpanContext?.spanId ?? ''),
      ),
    ).toBe(true);
  });
});
