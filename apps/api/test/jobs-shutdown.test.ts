import { eq, sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { emailOutbox } from '../src/db/schema/index.js';
import { createTestApp } from './harness.js';
import { startSmtpPeer } from './smtp-peer.js';

const peer = await startSmtpPeer({ mode: { kind: 'stall' } });
afterAll(() => peer.close());

it('shutdown waits a bounded time for a running job, then hands it back to the queue', async () => {
  const ctx = await createTestApp(
    { jobs: { shutdownMs: 1_500 } },
    { env: { SMTP_URL: `${peer.url}?socketTimeout=60000` } },
  );
  try {
    const outboxId = await ctx.app.deps.mailer.enqueue(ctx.database.db, {
      kind: 'invitation',
      to: 'stalled@shutdown.test',
      subject: 'Held by a stalled server',
      text: 'This try outlives the shutdown.',
    });
    const deadline = Date.now() + 20_000;
    while (peer.stalled === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(peer.stalled).toBe(1);

    const started = Date.now();
    await ctx.app.close();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(took).toBeLessThan(6_000);

    // The try was handed back: queued again for the next process, the mail still pending.
    const result = await ctx.database.db.execute(
      sql`select state, retry_count as "retryCount", output from pgboss.job where name = 'mail.deliver'`,
    );
    const [job] = (
      result as unknown as { rows: { state: string; retryCount: number; output: { message: string } }[] }
    ).rows;
    expect(job).toMatchObject({ state: 'retry' });
    expect(JSON.stringify(job!.output)).toContain('shut down while active');
    const [mail] = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.id, outboxId));
    expect(mail!.status).toBe('pending');
  } finally {
    await ctx.database.close();
  }
}, 60_000);
