import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createTestApp } from './harness.js';
import { subscriptionNoticesJob } from '../src/modules/notifications/subscription-notices.job.js';

it('debug', async () => {
  const ctx = await createTestApp();
  await ctx.app.deps.jobs.send(ctx.database.db, subscriptionNoticesJob, {});
  await new Promise((r) => setTimeout(r, 3000));
  const rows = await ctx.database.db.execute(sql`select name, state, retry_count, output from pgboss.job`);
  console.log(JSON.stringify((rows as any).rows, null, 1));
  await ctx.close();
  expect(1).toBe(1);
}, 60000);
