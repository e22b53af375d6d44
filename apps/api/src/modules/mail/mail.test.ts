import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { emailDeliveryAttempts, emailOutbox, notifications } from '../../db/schema/index.js';
import { systemActor } from '../../core/actor.js';
import { withDb } from '../../core/deps.js';
import { createTenant, type TestTenant } from '../../../test/fixtures.js';
import {
  createTestApp,
  LONG_MODE,
  roleIdByName,
  signIn,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer.js';
import { insertOutboxMail } from '../../core/outbox.repo.js';
import { mailDeliveryJob } from './mail-delivery.job.js';

/** The outage the issue names (2 minutes) in the long run; a few seconds otherwise. */
const OUTAGE_MS = LONG_MODE ? 120_000 : 4_000;

let peer: SmtpPeer;
let ctx: TestContext;
let root: Session;
let tenant: TestTenant;
let adminRoleId: string;

beforeAll(async () => {
  peer = await startSmtpPeer();
  // A 1 s first retry, doubling: a 2-minute outage is outlasted by the 7th retry, well within 12.
  ctx = await createTestApp(
    { jobs: { mail: { retryLimit: 12, retryDelaySeconds: 1, expireInSeconds: 30 } } },
    { env: { SMTP_URL: `${peer.url}?socketTimeout=1500&greetingTimeout=1500` } },
  );
  root = await signIn(ctx.app);
  tenant = await createTenant(ctx, 'Mail Co');
  adminRoleId = await roleIdByName(ctx);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await peer?.close();
});

async function invite(email: string) {
  const res = await tenant.session.post('/api/auth/auth-session/register', {
    username: `mail.${randomUUID().slice(0, 8)}`,
    email,
    mobileNo: '9876543210',
    client: 'Mail Co',
    organizationId: tenant.organizationId,
    roleId: adminRoleId,
    isSubscription: false,
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function outboxTo(email: string) {
  const [mail] = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));
  return mail!;
}

async function attemptsOf(outboxId: string) {
  return ctx.database.db
    .select()
    .from(emailDeliveryAttempts)
    .where(eq(emailDeliveryAttempts.outboxId, outboxId))
    .orderBy(emailDeliveryAttempts.attemptedAt);
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const receivedBy = (email: string) => peer.messages.filter((m) => m.to.includes(email));

describe('mail delivery over SMTP', () => {
  it(
    'an invitation sent while the server answers 421 arrives once after it recovers',
    async () => {
      const email = `outage.${randomUUID().slice(0, 8)}@mail.test`;
      peer.setMode({ kind: 'refuse', code: 421, message: 'Service not available, try again later' });
      const outageStarted = Date.now();
      await invite(email);
      const mail = await outboxTo(email);
      await until('a refused try', async () => (await attemptsOf(mail.id)).length > 0);
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - outageStarted)));
      const refused = await attemptsOf(mail.id);
      expect(refused.every((a) => a.outcome === 'temporary_failure' && a.smtpCode === 421)).toBe(true);
      expect((await outboxTo(email)).status).toBe('pending');
      expect(receivedBy(email)).toHaveLength(0);

      peer.setMode({ kind: 'accept' });
      await until('the invitation', async () => receivedBy(email).length > 0, OUTAGE_MS * 2 + 30_000);
      await ctx.app.deps.jobs.settled();
      const [received] = receivedBy(email);
      expect(receivedBy(email)).toHaveLength(1);
      expect(peer.countByMessageId().get(received!.messageId!)).toBe(1);
      expect(received!.subject).toBe('You are invited to the Interview Credits Portal');
      const sent = await outboxTo(email);
      expect(sent.status).toBe('sent');
      const attempts = await attemptsOf(mail.id);
      expect(attempts.at(-1)!.outcome).toBe('sent');
      expect(attempts.length).toBe(sent.attempts);
      expect(attempts.length).toBeGreaterThan(1);
      console.log(
        `421 for ${Math.round(OUTAGE_MS / 1000)} s: delivered once after ${attempts.length} tries, ${Math.round((Date.now() - outageStarted) / 1000)} s after the invitation`,
      );
    },
    OUTAGE_MS * 3 + 60_000,
  );

  it('a refused connection, a dropped one and a stalled one are tried again; each mail arrives once', async () => {
    const dropped = `dropped.${randomUUID().slice(0, 8)}@mail.test`;
    const stalled = `stalled.${randomUUID().slice(0, 8)}@mail.test`;
    const refused = `refused.${randomUUID().slice(0, 8)}@mail.test`;

    peer.setMode({ kind: 'drop' });
    await invite(dropped);
    await until('a dropped try', async () => (await attemptsOf((await outboxTo(dropped)).id)).length > 0);
    peer.setMode({ kind: 'stall' });
    await invite(stalled);
    await until('a stalled try', async () => (await attemptsOf((await outboxTo(stalled)).id)).length > 0);
    await peer.stopListening();
    await invite(refused);
    await until(
      'a refused connection',
      async () => (await attemptsOf((await outboxTo(refused)).id)).length > 0,
    );

    const firstTries = await Promise.all(
      [dropped, stalled, refused].map(async (e) => (await attemptsOf((await outboxTo(e)).id))[0]!),
    );
    expect(firstTries.map((a) => [a.outcome, a.smtpCode])).toEqual([
      ['temporary_failure', null],
      ['temporary_failure', null],
      ['temporary_failure', null],
    ]);
    expect(firstTries[1]!.error).toMatch(/timeout/i);
    expect(firstTries[2]!.error).toMatch(/ECONNREFUSED/);

    await peer.resumeListening();
    peer.setMode({ kind: 'accept' });
    for (const email of [dropped, refused]) {
      await until(`the mail to ${email}`, async () => receivedBy(email).length > 0, 60_000);
    }
    await until('the stalled mail', async () => receivedBy(stalled).length > 0, 60_000);
    await ctx.app.deps.jobs.settled(60_000);
    expect(receivedBy(dropped)).toHaveLength(1);
    expect(receivedBy(refused)).toHaveLength(1);
    // A stalled DATA may have been taken by the server after the client gave up on it: the one case
    // where SMTP itself can deliver twice. Both copies carry the outbox's one Message-ID.
    expect(new Set(receivedBy(stalled).map((m) => m.messageId)).size).toBe(1);
    for (const email of [dropped, stalled, refused]) expect((await outboxTo(email)).status).toBe('sent');
  }, 120_000);

  it('a 550 recipient is given up at once, listed as undelivered, its admins told; resent to a fixed address it arrives once', async () => {
    const wrong = `no-such-user.${randomUUID().slice(0, 8)}@mail.test`;
    const fixed = `fixed.${randomUUID().slice(0, 8)}@mail.test`;
    peer.rejectRecipient(wrong, 550, 'No such user here');
    await invite(wrong);
    const mail = await outboxTo(wrong);
    await until('the mail given up', async () => (await outboxTo(wrong)).status === 'undelivered');
    const attempts = await attemptsOf(mail.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ outcome: 'permanent_failure', smtpCode: 550 });

    const list = await root.get(`/api/auth/mail/undelivered?search=${encodeURIComponent(wrong)}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().meta.total).toBe(1);
    expect(list.json().data[0]).toMatchObject({
      id: mail.id,
      to: wrong,
      kind: 'invitation',
      organizationName: 'Mail Co',
      attempts: 1,
      subject: 'You are invited to the Interview Credits Portal',
    });
    expect(list.json().data[0].lastError).toMatch(/550/);
    const history = await root.get(`/api/auth/mail/${mail.id}/attempts`);
    expect(history.json().data).toEqual([
      expect.objectContaining({ outcome: 'permanent_failure', smtpCode: 550 }),
    ]);

    const told = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, tenant.userId), eq(notifications.kind, 'mail_undelivered')));
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain(wrong);

    const resend = await root.post(`/api/auth/mail/${mail.id}/resend`, { to: fixed.toUpperCase() });
    expect(resend.statusCode, resend.body).toBe(200);
    expect(resend.json().message).toBe(messages.mail.resent);
    await until('the resent mail', async () => receivedBy(fixed).length > 0);
    await ctx.app.deps.jobs.settled();
    expect(receivedBy(fixed)).toHaveLength(1);
    expect(receivedBy(wrong)).toHaveLength(0);
    expect((await outboxTo(fixed)).status).toBe('sent');
    expect(
      (await root.get(`/api/auth/mail/undelivered?search=${encodeURIComponent(wrong)}`)).json().meta.total,
    ).toBe(0);
    // Sent now: a second press changes nothing and says why.
    const again = await root.post(`/api/auth/mail/${mail.id}/resend`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(messages.mail.notUndelivered);
  });

  it('the last temporary failure gives the mail up like a permanent one', async () => {
    const email = `last-try.${randomUUID().slice(0, 8)}@mail.test`;
    peer.setMode({ kind: 'refuse', code: 451, message: 'Local error' });
    // Written without its job, so only the try below runs it.
    const outboxId = await insertOutboxMail(ctx.database.db, {
      kind: 'password_reset',
      to: email,
      subject: 'Reset your password',
      text: 'A test of the last try.',
    });
    const deps = ctx.app.deps;
    const lastTry = {
      id: randomUUID(),
      data: { outboxId },
      retryCount: 3,
      retryLimit: 3,
      createdOn: new Date(),
    };
    await mailDeliveryJob.run(deps, systemActor('test'), lastTry);
    peer.setMode({ kind: 'accept' });
    const mail = await outboxTo(email);
    expect(mail.status).toBe('undelivered');
    expect(mail.gaveUpAt).not.toBeNull();
    expect(mail.lastError).toMatch(/451/);
  });
});

describe('queued with the change that causes it', () => {
  it('a rolled-back change writes no mail and queues no job', async () => {
    const email = `rolled-back.${randomUUID().slice(0, 8)}@mail.test`;
    const jobsBefore = await ctx.database.db.execute(sql`select count(*)::int as n from pgboss.job`);
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await ctx.app.deps.mailer.enqueue(tx, { kind: 'invitation', to: email, subject: 's', text: 't' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const jobsAfter = await ctx.database.db.execute(sql`select count(*)::int as n from pgboss.job`);
    expect((jobsAfter as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(
      (jobsBefore as unknown as { rows: { n: number }[] }).rows[0]!.n,
    );
    expect(await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email))).toEqual(
      [],
    );
  });

  it('a job joins the caller’s transaction through withDb', async () => {
    const email = `joined.${randomUUID().slice(0, 8)}@mail.test`;
    await ctx.database.db.transaction(async (tx) => {
      await withDb(ctx.app.deps, tx).mailer.enqueue(tx, {
        kind: 'invitation',
        to: email,
        subject: 'Joined',
        text: 't',
      });
    });
    await until('the joined mail', async () => receivedBy(email).length > 0);
  });
});

describe('the undelivered-mail routes', () => {
  it('are the super administrator’s only, and check what they are given', async () => {
    const id = randomUUID();
    for (const res of [
      await tenant.session.get('/api/auth/mail/undelivered'),
      await tenant.session.get(`/api/auth/mail/${id}/attempts`),
      await tenant.session.post(`/api/auth/mail/${id}/resend`, {}),
    ]) {
      expect(res.statusCode).toBe(403);
    }
    expect((await root.get(`/api/auth/mail/${id}/attempts`)).statusCode).toBe(404);
    expect((await root.post(`/api/auth/mail/${id}/resend`, {})).json().message).toBe(messages.mail.notFound);
    const bad = await root.post(`/api/auth/mail/${id}/resend`, { to: 'not an email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().success).toBe(false);
    expect((await root.get('/api/auth/mail/not-a-uuid/attempts')).statusCode).toBe(400);
    expect((await root.get('/api/auth/mail/undelivered?pageSize=100000')).statusCode).toBe(400);
  });
});
