import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import {
  idempotencyKeys,
  rateLimitBuckets,
  scheduledRuns,
  sessions,
  storedFiles,
  users,
} from '../../db/schema/index.js';
import { createTestApp, signIn, type TestContext } from '../../../test/harness.js';
import { usePostgres } from '../../../test/test-database.js';
import { sha256Hex } from '../../lib/tokens.js';
import { ACCESS_COOKIE } from '../../plugins/session-cookies.js';
import { storeFile } from '../files/index.js';
import { systemActor } from '../../core/actor.js';
import { countHit } from '../../core/rate-limits.repo.js';
import { housekeepingPruners } from '../index.js';
import { runHousekeeping } from './housekeeping.service.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const HOUR = 3_600_000;
const USER = '00000000-0000-4000-8000-000000000001';

/** One run of the housekeeping as the route table wires it: every module's pruner. */
const housekeep = (now: Date) =>
  runHousekeeping(ctx.app.deps, systemActor('housekeeping'), { now, pruners: housekeepingPruners });

describe('housekeeping', () => {
  it('deletes rate-limit windows and idempotency keys older than a day, and keeps the rest', async () => {
    const db = ctx.database.db;
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now - 25 * HOUR);
    await countHit(db, 'prune:old', 15 * 60_000);
    vi.setSystemTime(now - 23 * HOUR);
    await countHit(db, 'prune:recent', 15 * 60_000);
    vi.useRealTimers();
    const key = (name: string, ageHours: number, status: 'completed' | 'in_progress' = 'completed') => ({
      userId: USER,
      key: name,
      route: 'POST /api/auth/onboarding',
      requestHash: 'h',
      status,
      responseStatus: 201,
      responseBody: {},
      createdAt: new Date(now - ageHours * HOUR),
    });
    await db
      .insert(idempotencyKeys)
      .values([key('old', 25), key('stale-claim', 30, 'in_progress'), key('recent', 23)]);

    const pruned = await housekeep(new Date(now));
    expect(pruned).toMatchObject({ rateLimitWindows: 1, idempotencyKeys: 2 });

    const windows = await db
      .select({ key: rateLimitBuckets.key })
      .from(rateLimitBuckets)
      .where(inArray(rateLimitBuckets.key, ['prune:old', 'prune:recent']));
    expect(windows.map((w) => w.key)).toEqual(['prune:recent']);
    const keys = await db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.userId, USER));
    expect(keys.map((k) => k.key)).toEqual(['recent']);
  });

  it("forgets scheduled runs older than the jobs' retention, and keeps the recent ones", async () => {
    const days = ctx.app.deps.config.jobs.retentionDays;
    const now = new Date();
    const startedAt = (ageDays: number) => new Date(now.getTime() - ageDays * 24 * HOUR);
    await ctx.database.db.insert(scheduledRuns).values([
      { job: 'test.old', slot: startedAt(days + 1), startedAt: startedAt(days + 1), outcome: 'completed' },
      { job: 'test.recent', slot: startedAt(days - 1), startedAt: startedAt(days - 1), outcome: 'completed' },
    ]);
    const counts = await housekeep(now);
    expect(counts.scheduledRuns).toBe(1);
    const left = await ctx.database.db.select({ job: scheduledRuns.job }).from(scheduledRuns);
    expect(left.map((r) => r.job)).toEqual(['test.recent']);
  });

  it('deletes sessions whose refresh token has expired; a live session keeps working', async () => {
    const live = await signIn(ctx.app);
    const ended = await signIn(ctx.app);
    const endedHash = sha256Hex(ended.cookies.get(ACCESS_COOKIE)!);
    await ctx.database.db
      .update(sessions)
      .set({
        accessExpiresAt: new Date(Date.now() - 2 * HOUR),
        refreshExpiresAt: new Date(Date.now() - HOUR),
      })
      .where(eq(sessions.accessTokenHash, endedHash));

    expect((await housekeep(new Date())).sessions).toBe(1);
    const left = await ctx.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.accessTokenHash, endedHash));
    expect(left).toEqual([]);
    expect((await live.get('/api/auth/profile')).statusCode).toBe(200);
    expect((await ended.post('/api/auth/auth-session/refresh-token', {})).statusCode).toBe(401);
  });

  it('deletes uploads a day old that nothing refers to, and keeps attachments, profile images and new uploads', async () => {
    const db = ctx.database.db;
    const [admin] = await db
      .select({ id: users.id, organizationId: users.organizationId })
      .from(users)
      .where(eq(users.id, ctx.adminId));
    const file = (name: string) =>
      storeFile(ctx.app.deps, systemActor('test'), {
        organizationId: admin!.organizationId,
        ownerUserId: admin!.id,
        fileName: `${name}.png`,
        mimeType: 'image/png',
        data: Buffer.from(name),
      });
    const [orphan, image, fresh] = [await file('orphan'), await file('image'), await file('fresh')];
    await db.update(users).set({ profileImageFileId: image }).where(eq(users.id, admin!.id));
    const dayAgo = new Date(Date.now() - 25 * HOUR);
    await db
      .update(storedFiles)
      .set({ createdAt: dayAgo })
      .where(inArray(storedFiles.id, [orphan, image]));

    expect((await housekeep(new Date())).unreferencedFiles).toBe(1);
    const left = await db
      .select({ id: storedFiles.id })
      .from(storedFiles)
      .where(inArray(storedFiles.id, [orphan, image, fresh]));
    expect(left.map((f) => f.id).sort()).toEqual([image, fresh].sort());
    await db.update(users).set({ profileImageFileId: null }).where(eq(users.id, admin!.id));
  });

  it.runIf(!usePostgres)(
    'gives the embedded database the statistics and cleanup its missing autovacuum would',
    async () => {
      const db = ctx.database.db;
      // A table of its own: earlier runs of this file have analyzed the others already.
      await db.execute(sql`create table housekeeping_probe as select g as n from generate_series(1, 100) g`);
      const statistics = async () => {
        const { rows } = await db.execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stats where tablename = 'housekeeping_probe'`,
        );
        return rows[0]!.n;
      };
      expect(await statistics()).toBe(0);
      await housekeep(new Date());
      expect(await statistics()).toBeGreaterThan(0);
      await db.execute(sql`drop table housekeeping_probe`);
    },
  );
});
