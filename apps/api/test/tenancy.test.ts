/**
 * Tenancy matrix for the users routes: every route × actor (super_admin, admin of org A, a custom
 * role of org A with User Management READ and UPDATE only) × target (a member of org A, an admin
 * of org A, a member of org B, a new organization, oneself). Each case asserts the status, and on a
 * refusal that nothing in the database changed; on a change, that it happened and was recorded.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@portal/shared';
import {
  activityEntries,
  emailOutbox,
  oneTimeTokens,
  organizations,
  sessions,
  users,
} from '../src/db/schema/index.js';
import {
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  type Session,
  type TestContext,
} from './harness.js';
import { createRole } from './fixtures.js';

type ActorName = 'super_admin' | 'adminA' | 'customA';
type Target = 'ownMember' | 'ownAdmin' | 'foreign' | 'newOrg' | 'self';

let ctx: TestContext;
let orgA: string;
let orgB: string;
let adminRole: string;
const memberRole: Record<'A' | 'B', string> = { A: '', B: '' };
const otherRole: Record<'A' | 'B', string> = { A: '', B: '' };
const actors = {} as Record<ActorName, Session>;

beforeAll(async () => {
  ctx = await createTestApp();
  adminRole = await roleIdByName(ctx);
  orgA = await createOrganizationDirect(ctx, 'Tenant A');
  orgB = await createOrganizationDirect(ctx, 'Tenant B');
  memberRole.A = await createRole(ctx, orgA, 'Member', { dashboard: ['READ'] });
  memberRole.B = await createRole(ctx, orgB, 'Member', { dashboard: ['READ'] });
  otherRole.A = await createRole(ctx, orgA, 'Observer', { dashboard: ['READ'] });
  otherRole.B = await createRole(ctx, orgB, 'Observer', { dashboard: ['READ'] });
  const coordinator = await createRole(ctx, orgA, 'Coordinator', {
    dashboard: ['READ'],
    users: ['READ', 'UPDATE'],
  });
  await createUserDirect(ctx, { email: 'admin@tenant-a.test', roleId: adminRole, organizationId: orgA });
  await createUserDirect(ctx, { email: 'coord@tenant-a.test', roleId: coordinator, organizationId: orgA });
  actors.super_admin = await signIn(ctx.app);
  actors.adminA = await signIn(ctx.app, 'admin@tenant-a.test', STRONG_PASSWORD);
  actors.customA = await signIn(ctx.app, 'coord@tenant-a.test', STRONG_PASSWORD);
});
afterAll(() => ctx.close());

let serial = 0;
interface Subject {
  id: string;
  organizationId: string;
  org: 'A' | 'B';
}

/** A fresh user for one case, so cases never depend on each other. */
async function subject(target: Target, actor: ActorName, state: { active?: boolean; password?: boolean }) {
  if (target === 'self') {
    const id = actors[actor].userId;
    const [u] = await ctx.database.db.select().from(users).where(eq(users.id, id));
    return { id, organizationId: u!.organizationId, org: u!.organizationId === orgB ? 'B' : 'A' } as Subject;
  }
  serial += 1;
  const org = target === 'foreign' ? 'B' : 'A';
  const organizationId = org === 'A' ? orgA : orgB;
  const email = `t${serial}@tenancy.test`;
  const id = await createUserDirect(ctx, {
    email,
    username: `t${serial}`,
    roleId: target === 'ownAdmin' ? adminRole : memberRole[org],
    organizationId,
    isActive: state.active ?? true,
  });
  if (state.password === false) {
    await ctx.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, id));
  }
  return { id, organizationId, org } as Subject;
}

async function count(
  table: typeof users | typeof organizations | typeof emailOutbox | typeof activityEntries,
) {
  const [r] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return r!.n;
}

/** Everything a users route could change. */
async function snapshot(userId: string | null) {
  const [revoked] = await ctx.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(sql`${sessions.revokedAt} is not null`);
  const [tokens] = await ctx.database.db
    .select({ n: sql<number>`count(*)::int`, used: sql<number>`count(${oneTimeTokens.usedAt})::int` })
    .from(oneTimeTokens);
  return {
    user: userId ? (await ctx.database.db.select().from(users).where(eq(users.id, userId)))[0] : null,
    users: await count(users),
    organizations: await count(organizations),
    outbox: await count(emailOutbox),
    activity: await count(activityEntries),
    revokedSessions: revoked!.n,
    tokens: tokens,
  };
}

function newUserBody(organizationId: string, roleId: string) {
  serial += 1;
  return {
    username: `new${serial}`,
    email: `new${serial}@tenancy.test`,
    mobileNo: '9876543210',
    client: 'Tenancy Co',
    organizationId,
    roleId,
  };
}

interface RouteCase {
  route: string;
  targets: Target[];
  /** State of the subject user before the call. */
  state?: { active?: boolean; password?: boolean };
  /** Read-only routes change nothing even when they succeed. */
  readOnly?: boolean;
  call(s: Session, t: Subject | null, target: Target): Promise<{ statusCode: number; json(): unknown }>;
  /** What a success must show. */
  verify?(t: Subject | null, body: unknown, target: Target): Promise<void> | void;
}

const orgOf = (target: Target) => (target === 'foreign' ? orgB : orgA);

const ROUTES: RouteCase[] = [
  {
    route: 'GET /api/auth/users?organizationId=',
    targets: ['ownMember', 'foreign'],
    readOnly: true,
    call: (s, _t, target) => s.get(`/api/auth/users?organizationId=${orgOf(target)}&pageSize=100`),
    verify: (_t, body, target) => {
      const { data } = body as { data: User[] };
      expect(data.length).toBeGreaterThan(0);
      expect(data.every((u) => u.organizationId === orgOf(target))).toBe(true);
    },
  },
  {
    route: 'GET /api/auth/users/:id',
    targets: ['ownMember', 'foreign'],
    readOnly: true,
    call: (s, t) => s.get(`/api/auth/users/${t!.id}`),
    verify: (t, body) => expect((body as { data: User }).data.id).toBe(t!.id),
  },
  {
    route: 'PUT /api/auth/users/:id (mobileNo)',
    targets: ['ownMember', 'ownAdmin', 'foreign'],
    call: (s, t) => s.put(`/api/auth/users/${t!.id}`, { mobileNo: '9000000009' }),
    verify: async (t) => {
      const after = await snapshot(t!.id);
      expect(after.user!.mobileNo).toBe('9000000009');
    },
  },
  {
    route: 'PUT /api/auth/users/:id (roleId)',
    targets: ['ownMember', 'ownAdmin', 'foreign'],
    call: (s, t) => s.put(`/api/auth/users/${t!.id}`, { roleId: otherRole[t!.org] }),
    verify: async (t) => expect((await snapshot(t!.id)).user!.roleId).toBe(otherRole[t!.org]),
  },
  {
    route: 'PUT /api/auth/users/:id/deactivate',
    targets: ['ownMember', 'ownAdmin', 'foreign', 'self'],
    call: (s, t) => s.put(`/api/auth/users/${t!.id}/deactivate`),
    verify: async (t) => expect((await snapshot(t!.id)).user!.isActive).toBe(false),
  },
  {
    route: 'PUT /api/auth/users/:id/activate',
    targets: ['ownMember', 'ownAdmin', 'foreign'],
    state: { active: false },
    call: (s, t) => s.put(`/api/auth/users/${t!.id}/activate`),
    verify: async (t) => expect((await snapshot(t!.id)).user!.isActive).toBe(true),
  },
  {
    route: 'POST /api/auth/users/:id/resend-invite',
    targets: ['ownMember', 'ownAdmin', 'foreign'],
    state: { password: false },
    call: (s, t) => s.post(`/api/auth/users/${t!.id}/resend-invite`),
    verify: (_t, body) => expect((body as { data: User }).data.inviteStatus).toBe('pending'),
  },
  {
    route: 'GET /api/auth/users/export?organizationId=',
    targets: ['ownMember', 'foreign'],
    readOnly: true,
    call: (s, _t, target) => s.get(`/api/auth/users/export?organizationId=${orgOf(target)}&format=csv`),
  },
  {
    route: 'POST /api/auth/users/as/admin',
    targets: ['ownMember', 'foreign', 'newOrg'],
    call: (s, _t, target) =>
      s.post(
        '/api/auth/users/as/admin',
        newUserBody(target === 'newOrg' ? randomUUID() : orgOf(target), adminRole),
      ),
    verify: (_t, body, target) => {
      const { data } = body as { data: User };
      if (target !== 'newOrg') expect(data.organizationId).toBe(orgOf(target));
      expect(data.inviteStatus).toBe('pending');
    },
  },
  {
    route: 'POST /api/auth/auth-session/register',
    targets: ['ownMember', 'foreign', 'newOrg'],
    call: (s, _t, target) =>
      s.post(
        '/api/auth/auth-session/register',
        target === 'newOrg'
          ? newUserBody(randomUUID(), adminRole)
          : newUserBody(orgOf(target), memberRole[target === 'foreign' ? 'B' : 'A']),
      ),
    verify: (_t, body, target) => expect((body as { data: User }).data.organizationId).toBe(orgOf(target)),
  },
  {
    route: 'GET /api/auth/organizations?search=',
    targets: ['ownMember', 'foreign'],
    readOnly: true,
    call: (s, _t, target) =>
      s.get(`/api/auth/organizations?search=${target === 'foreign' ? 'Tenant B' : 'Tenant A'}`),
    verify: (_t, body, target) => {
      const { data } = body as { data: { id: string }[] };
      expect(data.map((o) => o.id)).toEqual(
        // Another tenant's organization is simply not there for a tenant admin.
        target === 'foreign' && currentActor !== 'super_admin' ? [] : [orgOf(target)],
      );
    },
  },
];
let currentActor: ActorName = 'super_admin';

const NO_CREATE = 403;
/** Expected status per route, actor and target. */
function expected(route: string, actor: ActorName, target: Target): number {
  const created =
    route.startsWith('POST /api/auth/users/as') || route.startsWith('POST /api/auth/auth-session');
  if (target === 'self') return 403; // nobody deactivates themselves
  if (route.startsWith('GET /api/auth/organizations')) return actor === 'customA' ? 403 : 200;
  if (created) {
    if (actor === 'customA') return NO_CREATE;
    if (target === 'newOrg') {
      if (route.includes('register')) return 404; // register never creates an organization
      // A new tenant needs Organization Management CREATE; without it, the same 404 as a foreign one.
      return actor === 'super_admin' ? 201 : 404;
    }
    if (actor === 'super_admin') return 201;
    return target === 'foreign' ? 404 : 201;
  }
  if (route.startsWith('GET /api/auth/users/export')) {
    if (actor === 'customA') return 403; // no User Management EXPORT
    return actor === 'adminA' && target === 'foreign' ? 404 : 200;
  }
  if (actor === 'super_admin') return 200;
  if (target === 'foreign') return 404;
  // A custom role manages only users whose role is no wider than its own.
  if (actor === 'customA' && target === 'ownAdmin') return 403;
  return 200;
}

const CASES = ROUTES.flatMap((r) =>
  (['super_admin', 'adminA', 'customA'] as const).flatMap((actor) =>
    r.targets.map((target) => ({ r, actor, target, status: expected(r.route, actor, target) })),
  ),
);

describe(`users tenancy matrix (${CASES.length} cases)`, () => {
  it.each(CASES.map((c) => [c.r.route, c.actor, c.target, c.status, c] as const))(
    '%s as %s on %s → %i',
    async (_route, actor, target, status, c) => {
      currentActor = actor;
      const t =
        target === 'newOrg' ||
        c.r.route.startsWith('POST /api/auth/users/as') ||
        c.r.route.includes('register')
          ? null
          : await subject(target, actor, c.r.state ?? {});
      const before = await snapshot(t?.id ?? null);
      const res = await c.r.call(actors[actor], t, target);
      expect(res.statusCode, (res as unknown as { body: string }).body.slice(0, 300)).toBe(status);
      const after = await snapshot(t?.id ?? null);
      if (status >= 400 || c.r.readOnly) {
        expect(after).toEqual(before);
      } else {
        expect(after.activity).toBeGreaterThan(before.activity);
      }
      if (status < 300 && !c.r.route.includes('/export')) await c.r.verify?.(t, res.json(), target);
      if (status < 300 && c.r.route.includes('/export')) {
        const body = (res as unknown as { body: string }).body;
        const ids = body
          .split('\r\n')
          .slice(1, -1)
          .map((line) => line.split(',')[6]);
        expect(ids.length).toBeGreaterThan(0);
        expect(ids.every((id) => id === orgOf(target))).toBe(true);
      }
    },
  );

  it('has a case for every users route', () => {
    const routes = ctx.app.routeAccess
      .filter((r) => /\/api\/auth\/(users|organizations|auth-session\/register)/.test(r.url))
      .filter((r) => r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`)
      // The password module's route: its own suite covers it.
      .filter((r) => r !== 'PUT /api/auth/users/password')
      // The sessions and two-factor modules': tenancy-every-route.test.ts, no-wider-role.test.ts and
      // their own suites cover them.
      .filter((r) => r !== 'POST /api/auth/users/:id/end-sessions')
      .filter((r) => r !== 'POST /api/auth/users/:id/two-factor/reset');
    const covered = ROUTES.map((r) => r.route.split(/[ ?(]/).slice(0, 2).join(' '));
    for (const route of routes) expect(covered, route).toContain(route.replace(/\?.*$/, ''));
    process.stdout.write(`\ntenancy matrix: ${CASES.length} cases over ${routes.length} routes\n`);
  });
});
