import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages, SYSTEM_ROLES, type CreateUserBody } from '@portal/shared';
import type { Actor } from '../../core/actor.js';
import { withDb } from '../../core/deps.js';
import { findUserDto } from '../../core/identity/users.repo.js';
import { activityEntries, emailOutbox, oneTimeTokens, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { sha256Hex } from '../../lib/tokens.js';
import {
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  roleIdByName,
  type TestContext,
} from '../../../test/harness.js';
import { createRole } from '../../../test/fixtures.js';
import { usePostgres } from '../../../test/test-database.js';
import {
  createImportedUsers,
  createUserIn,
  type ImportedUserOutcome,
  type ImportedUserRow,
} from './index.js';

// The identity lookup, missable on demand: a name it does not see is one "taken meanwhile", after the
// lookup and before the insert (on PGlite, one session, no other transaction can take it then).
const lookup = vi.hoisted(() => ({ blind: false }));
vi.mock('./users.repo.js', async (original) => {
  const actual = await original<typeof import('./users.repo.js')>();
  return {
    ...actual,
    findUsersHoldingIdentities: (...args: Parameters<typeof actual.findUsersHoldingIdentities>) =>
      lookup.blind ? Promise.resolve([]) : actual.findUsersHoldingIdentities(...args),
  };
});

let ctx: TestContext;
let orgA: string;
let orgB: string;
let memberRole: string;
let wideRole: string;
let importer: Actor;
let root: Actor;

/** The actor a user acts as, read as the import's job reads its committer. */
async function actorOf(userId: string): Promise<Actor> {
  const user = (await findUserDto(ctx.database.db, userId))!;
  return {
    kind: 'user',
    userId: user.id,
    organizationId: user.organizationId,
    roleId: user.roleId,
    roleName: user.role.name,
    isSuperAdmin: user.role.name === SYSTEM_ROLES.superAdmin,
    permissions: user.role.permissions,
    sessionId: '',
    familyId: '',
    twoFactor: { enabled: false, required: false },
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  orgA = await createOrganizationDirect(ctx, 'Batch A');
  orgB = await createOrganizationDirect(ctx, 'Batch B');
  memberRole = await createRole(ctx, orgA, 'Member', { dashboard: ['READ'], users: ['READ'] });
  // Roles is what the importer's role lacks: a role holding it is wider than theirs.
  wideRole = await createRole(ctx, orgA, 'Wide', { dashboard: ['READ'], roles: ['READ'] });
  const importerRole = await createRole(ctx, orgA, 'Importer', {
    dashboard: ['READ'],
    users: ['READ', 'CREATE', 'IMPORT'],
  });
  importer = await actorOf(
    await createUserDirect(ctx, {
      email: 'importer@batch-a.test',
      roleId: importerRole,
      organizationId: orgA,
    }),
  );
  root = await actorOf(ctx.adminId);
});
afterAll(() => ctx?.close());

let n = 0;
function body(over: Partial<CreateUserBody> = {}): CreateUserBody {
  n += 1;
  const tag = `${n}.${randomUUID().slice(0, 6)}`;
  return {
    username: `batch.${tag}`,
    email: `batch.${tag}@batch-a.test`,
    mobileNo: '9876543210',
    client: 'Batch A',
    organizationId: orgA,
    roleId: memberRole,
    ...over,
  };
}

const organizationA = () => ({ id: orgA, name: 'Batch A', isPlatform: false });

/** One batch in a transaction of its own, as the import's commit runs it. */
function importBatch(actor: Actor, rows: ImportedUserRow[]) {
  return ctx.database.db.transaction((tx) =>
    createImportedUsers(withDb(ctx.app.deps, tx), actor, { organization: organizationA(), rows }),
  );
}

function createdUser(outcome: ImportedUserOutcome | undefined) {
  if (!outcome || !('user' in outcome)) throw new Error(`not created: ${JSON.stringify(outcome)}`);
  return outcome.user;
}

function refusal(outcome: ImportedUserOutcome | undefined) {
  if (!outcome || !('error' in outcome)) throw new Error(`not refused: ${JSON.stringify(outcome)}`);
  expect(outcome.error).toBeInstanceOf(AppError);
  return { status: outcome.error.statusCode, message: outcome.error.message };
}

async function usersWithEmails(emails: string[]) {
  return ctx.database.db
    .select({ email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        emails.map((e) => e.toLowerCase()),
      ),
    );
}

/** Everything createUserIn and the batch write for a user, with what differs per user taken out. */
async function recordsOf(userId: string) {
  const db = ctx.database.db;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const strip = (text: string) =>
    text.replaceAll(user!.username, '<username>').replaceAll(user!.email, '<email>');
  const tokens = await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, userId));
  const mails = await db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, user!.email));
  const jobs = await db.execute<Record<string, unknown>>(
    sql`select name, data, priority, retry_limit, retry_delay, retry_backoff, expire_in::text, policy,
          dead_letter, singleton_key, (keep_until - created_on)::text as kept_for
        from pgboss.job where data->>'outboxId' = any(${sql.param(mails.map((m) => m.id))}::text[])`,
  );
  const activity = await db.select().from(activityEntries).where(eq(activityEntries.entityId, userId));
  const link = /reset-password\?token=(\S+)/.exec(mails[0]?.textBody ?? '')?.[1];
  return {
    user: {
      ...user!,
      id: '<id>',
      username: '<username>',
      email: '<email>',
      createdAt: null,
      updatedAt: null,
    },
    tokens: tokens.map((t) => ({
      purpose: t.purpose,
      usedAt: t.usedAt,
      validHours: Math.round((t.expiresAt.getTime() - t.createdAt.getTime()) / 3_600_000),
      // The link mailed is this token's.
      mailed: link !== undefined && sha256Hex(decodeURIComponent(link)) === t.tokenHash,
    })),
    mails: mails.map((m) => ({
      ...m,
      id: '<id>',
      toAddress: '<email>',
      textBody: m.textBody.replace(/token=\S+/, 'token=<token>'),
      status: m.status === 'sent' || m.status === 'logged' ? 'delivered' : m.status,
      createdAt: null,
      sentAt: null,
    })),
    jobs: (jobs as unknown as { rows: Record<string, unknown>[] }).rows.map((j) => ({
      ...j,
      data: Object.keys(j.data as object),
    })),
    activity: activity.map((a) => ({
      ...a,
      id: '<id>',
      entityId: '<id>',
      message: strip(a.message),
      createdAt: null,
    })),
  };
}

describe('createImportedUsers', () => {
  it('creates what createUserIn creates: the user, the invitation mailed once after commit, the activity entry', async () => {
    const screen = await createUserIn(ctx.app.deps, importer, body());
    const batch = await importBatch(importer, [{ key: 2, input: body() }]);
    const user = createdUser(batch.get(2));
    await ctx.app.deps.jobs.settled();

    const expected = await recordsOf(screen.user.id);
    expect(expected.tokens).toEqual([{ purpose: 'invite', usedAt: null, validHours: 72, mailed: true }]);
    expect(expected.mails).toHaveLength(1);
    expect(expected.mails[0]!.status).toBe('delivered');
    expect(expected.jobs).toHaveLength(1);
    expect(expected.activity).toHaveLength(1);
    expect(await recordsOf(user.id)).toEqual(expected);
    // What the function answered is the row as stored.
    const [stored] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(user).toEqual(stored);
  });

  it('writes and mails nothing when the caller rolls back', async () => {
    const rows = [body(), body()];
    await expect(
      ctx.database.db.transaction(async (tx) => {
        const outcomes = await createImportedUsers(withDb(ctx.app.deps, tx), importer, {
          organization: organizationA(),
          rows: rows.map((input, key) => ({ key, input })),
        });
        expect([...outcomes.values()].every((o) => 'user' in o)).toBe(true);
        throw new Error('the batch fails after the users');
      }),
    ).rejects.toThrow('the batch fails after the users');
    await ctx.app.deps.jobs.settled();
    expect(await usersWithEmails(rows.map((r) => r.email))).toEqual([]);
    const mails = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(
        inArray(
          emailOutbox.toAddress,
          rows.map((r) => r.email),
        ),
      );
    expect(mails).toEqual([]);
  });

  it('answers each row its own refusal, as the invite screen words it, and creates the rest', async () => {
    const elsewhere = body({ organizationId: orgB, client: 'Batch B' });
    await createUserIn(ctx.app.deps, root, { ...elsewhere, roleId: await roleIdByName(ctx) });
    const repeated = body();
    const rows: ImportedUserRow[] = [
      { key: 1, input: body() },
      { key: 2, input: body({ email: 'not an email' }) },
      { key: 3, input: body({ organizationId: orgB }) },
      { key: 4, input: body({ roleId: wideRole }) },
      { key: 5, input: body({ roleId: randomUUID() }) },
      // Held in another organization: the screen's answer, whoever holds it.
      { key: 6, input: body({ email: elsewhere.email.toUpperCase() }) },
      { key: 7, input: body({ username: elsewhere.username.toUpperCase() }) },
      { key: 8, input: repeated },
      // An earlier row of the batch holds it.
      { key: 9, input: body({ email: repeated.email }) },
      { key: 10, input: body({ username: repeated.username.toUpperCase() }) },
      { key: 11, input: body({ roleId: SYSTEM_ROLES.admin }) },
      { key: 12, input: body() },
    ];
    const outcomes = await importBatch(importer, rows);
    expect([...outcomes.keys()].sort((a, b) => a - b)).toEqual(rows.map((r) => r.key));
    const duplicate = { status: 409, message: messages.users.duplicate };
    expect(refusal(outcomes.get(2))).toEqual({ status: 400, message: messages.users.invalidEmail });
    expect(refusal(outcomes.get(3))).toEqual({ status: 404, message: messages.users.organizationNotFound });
    expect(refusal(outcomes.get(4))).toEqual({ status: 403, message: messages.roles.scopeNotHeld });
    expect(refusal(outcomes.get(5))).toEqual({ status: 404, message: messages.roles.roleNotFound });
    expect(refusal(outcomes.get(6))).toEqual(duplicate);
    expect(refusal(outcomes.get(7))).toEqual(duplicate);
    expect(refusal(outcomes.get(9))).toEqual(duplicate);
    expect(refusal(outcomes.get(10))).toEqual(duplicate);
    expect(refusal(outcomes.get(11))).toEqual({ status: 400, message: messages.users.roleIdInvalid });
    for (const key of [1, 8, 12]) expect(createdUser(outcomes.get(key)).roleId).toBe(memberRole);

    // The screen refuses each the same way.
    for (const key of [2, 3, 4, 5, 6, 7, 11]) {
      const input = rows.find((r) => r.key === key)!.input;
      const screen = await createUserIn(ctx.app.deps, importer, input).then(
        () => null,
        (error: AppError) => ({ status: error.statusCode, message: error.message }),
      );
      expect(screen, `row ${key}`).toEqual(refusal(outcomes.get(key)));
    }
    // Rows 6 and 7 name the user of the other organization.
    const created = await usersWithEmails(
      rows.filter((r) => r.key !== 6 && r.key !== 7).map((r) => String(r.input.email)),
    );
    expect(created.map((u) => u.email).sort()).toEqual(
      [1, 8, 12].map((key) => String(rows.find((r) => r.key === key)!.input.email).toLowerCase()).sort(),
    );
    const invited = await ctx.database.db
      .select({ to: emailOutbox.toAddress })
      .from(emailOutbox)
      .where(
        inArray(
          emailOutbox.toAddress,
          created.map((u) => u.email),
        ),
      );
    expect(invited).toHaveLength(3);
  });

  it('refuses a name taken after its lookup, and the rest of the batch goes on', async () => {
    const taken = body();
    const free = body();
    const outcomes = await ctx.database.db.transaction(async (tx) => {
      // Taken by a request committed after the lookup (here, in the same transaction, before the insert).
      await createUserIn(withDb(ctx.app.deps, tx), importer, {
        ...body(),
        username: taken.username.toUpperCase(),
      });
      lookup.blind = true;
      try {
        return await createImportedUsers(withDb(ctx.app.deps, tx), importer, {
          organization: organizationA(),
          rows: [
            { key: 1, input: taken },
            { key: 2, input: free },
          ],
        });
      } finally {
        lookup.blind = false;
      }
    });
    expect(refusal(outcomes.get(1))).toEqual({ status: 409, message: messages.users.duplicate });
    expect(createdUser(outcomes.get(2)).email).toBe(free.email);
    expect(await usersWithEmails([taken.email])).toEqual([]);
  });

  it.skipIf(!usePostgres)(
    'refuses an email a concurrent transaction commits while the batch waits on it',
    { timeout: 30_000 },
    async () => {
      const contested = body();
      const other = body();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
      // A screen's invitation of the same email, committed only once the batch waits on its row.
      const screen = ctx.database.db.transaction(async (tx) => {
        await createUserIn(withDb(ctx.app.deps, tx), importer, { ...body(), email: contested.email });
        inserted();
        await held;
      });
      await insertedOnce;
      const batch = importBatch(importer, [
        { key: 1, input: contested },
        { key: 2, input: other },
      ]);
      // The batch's insert waits on the screen's uncommitted row.
      for (let i = 0; ; i++) {
        const waiting = await ctx.database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
        );
        if ((waiting as unknown as { rows: { n: number }[] }).rows[0]!.n > 0) break;
        if (i > 200) throw new Error('the batch never waited on the screen');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      release();
      await screen;
      const outcomes = await batch;
      expect(refusal(outcomes.get(1))).toEqual({ status: 409, message: messages.users.duplicate });
      expect(createdUser(outcomes.get(2)).email).toBe(other.email);
    },
  );

  // Last: it stops the job queue, so that only the batch's own statements are counted.
  it('takes a bounded number of statements, the same for 100 users as for 200', async () => {
    await ctx.app.deps.jobs.settled();
    await ctx.app.deps.jobs.stop();
    const statementsOf = async (size: number) => {
      const rows = Array.from({ length: size }, (_, key) => ({ key, input: body() }));
      let count = 0;
      const stop = ctx.database.onStatement(() => count++);
      try {
        const outcomes = await importBatch(importer, rows);
        expect([...outcomes.values()].filter((o) => 'user' in o)).toHaveLength(size);
      } finally {
        stop();
      }
      return count;
    };
    const at100 = await statementsOf(100);
    const at200 = await statementsOf(200);
    // Whatever the batch's size: begin, the role's two, the lookup, the users, the links' two, the
    // outbox, the jobs, the activity, commit.
    expect(at200).toBe(at100);
    expect(at200).toBeLessThanOrEqual(11);
  });
});
