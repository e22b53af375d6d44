import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import type { Db } from '../src/db/client.js';
import { createTestApp, type TestContext } from './harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

describe('liveness and readiness', () => {
  it('answer 200 while the process serves, its database answers and every migration is applied', async () => {
    expect((await get('/api/health/live')).json()).toEqual({ success: true, status: 'live' });
    const ready = await get('/api/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ success: true, status: 'ready', database: ctx.app.deps.dbKind });
  });

  it('is not ready once the process drains after SIGTERM, and says so with Retry-After; still live', async () => {
    ctx.app.deps.lifecycle.draining = true;
    try {
      const ready = await get('/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json()).toEqual({
        success: false,
        message: messages.http.busy,
        errors: { draining: ['The process is shutting down.'] },
      });
      expect((await get('/api/health/live')).statusCode).toBe(200);
    } finally {
      ctx.app.deps.lifecycle.draining = false;
    }
  });

  it('is not ready while a migration is pending', async () => {
    const [last] = (
      await ctx.database.db.execute(
        sql`select id, hash, created_at from drizzle.__drizzle_migrations order by id desc limit 1`,
      )
    ).rows as { id: number; hash: string; created_at: string }[];
    await ctx.database.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last!.id}`);
    try {
      const ready = await get('/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().errors).toEqual({ migrations: ['1 migration(s) not yet applied.'] });
    } finally {
      await ctx.database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last!.id}, ${last!.hash}, ${last!.created_at})`,
      );
    }
    expect((await get('/api/health/ready')).statusCode).toBe(200);
  });

  it('is not ready when the database does not answer within 2 seconds', async () => {
    const db = ctx.app.deps.db;
    // A database that never answers, as one behind a dead network would.
    ctx.app.deps.db = { execute: () => new Promise(() => {}) } as unknown as Db;
    try {
      const started = Date.now();
      const ready = await get('/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().errors).toEqual({ database: ['The database did not answer within 2000 ms.'] });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await get('/api/health/live')).statusCode).toBe(200);
    } finally {
      ctx.app.deps.db = db;
    }
  });
});

describe('an overloaded process', () => {
  it('answers 503 with Retry-After while its event loop lags, the probes still answer, then recovers', async () => {
    const overloaded = await createTestApp({ overload: { maxEventLoopDelayMs: 200 } });
    try {
      const list = () => overloaded.app.inject({ method: 'GET', url: '/api/config' });
      expect((await list()).statusCode).toBe(200);
      // The event loop held 400 ms at a time, its mean lag far above 200 ms, until the next sample
      // (each second, on a timer of its own that a busy machine can delay) has seen it; 10 s at most.
      const until = Date.now() + 10_000;
      while (Date.now() < until && !overloaded.app.isUnderPressure()) {
        const block = Date.now() + 400;
        while (Date.now() < block);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const refused = await list();
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('10');
      expect(refused.json()).toEqual({ success: false, message: messages.http.busy, errors: {} });
      expect((await overloaded.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
      // A quiet second later it serves again.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect((await list()).statusCode).toBe(200);
    } finally {
      await overloaded.close();
    }
  });
});
