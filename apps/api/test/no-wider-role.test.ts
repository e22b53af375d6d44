/**
 * Nobody acts on a user whose role allows more than their own (docs/decisions/003): every route that
 * acts on another user refuses a narrower actor with 403 and changes nothing, for the platform's
 * users against the super administrator and for a tenant's members against their admin. The list of
 * such routes is taken from the route table, so a new one without a case fails here.
 */
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { users } from '../src/db/schema/index.js';
import {
  ADMIN_EMAIL,
  createTestApp,
  enrolTwoFactor,
  signIn,
  STRONG_PASSWORD,
  tableFingerprint,
  type Session,
  type TestContext,
} from './harness.js';
import { createRole, createTenant } from './fixtures.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** Routes whose target is another user, by the `:id` of a users URL. */
const ACTING_ON_A_USER: Record<string, (s: Session, id: string) => Promise<LightMyRequestResponse>> = {
  'PUT /api/auth/users/:id': (s, id) => s.put(`/api/auth/users/${id}`, { fullName: 'Changed By Someone' }),
  'PUT /api/auth/users/:id/activate': (s, id) => s.put(`/api/auth/users/${id}/activate`),
  'PUT /api/auth/users/:id/deactivate': (s, id) => s.put(`/api/auth/users/${id}/deactivate`),
  'POST /api/auth/users/:id/resend-invite': (s, id) => s.post(`/api/auth/users/${id}/resend-invite`),
  'POST /api/auth/users/:id/end-sessions': (s, id) => s.post(`/api/auth/users/${id}/end-sessions`),
  'POST /api/auth/users/:id/two-factor/reset': (s, id) => s.post(`/api/auth/users/${id}/two-factor/reset`),
};

it('has a case for every route that acts on another user', () => {
  const routes = ctx.app.routeAccess
    .filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && r.url.startsWith('/api/auth/users/:id'))
    .map((r) => `${r.method} ${r.url}`);
  expect(routes.sort()).toEqual(Object.keys(ACTING_ON_A_USER).sort());
});

/** The target as each route needs it: no password yet for resend-invite, a factor for its reset. */
async function prepare(route: string, targetId: string, email: string) {
  if (route.includes('resend-invite')) {
    await ctx.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, targetId));
  } else if (route.includes('two-factor')) {
    // The target's factor is on (the template's super administrator has one already).
    if (email !== ADMIN_EMAIL) await enrolTwoFactor(await signIn(ctx.app, email, STRONG_PASSWORD));
  }
}

describe('a platform user with Users UPDATE and Organization CREATE', () => {
  it('acts on no super administrator: 403 and nothing changed, on every route', async () => {
    const [platform] = await ctx.database.db
      .select({ organizationId: users.organizationId })
      .from(users)
      .where(eq(users.id, ctx.adminId));
    const roleId = await createRole(ctx, platform!.organizationId, 'Help Desk', {
      users: ['READ', 'CREATE', 'UPDATE'],
      organizations: ['READ', 'CREATE'],
    });
    const desk = await createTenant(ctx, 'Desk', { organizationId: platform!.organizationId, roleId });
    const rootSession = await signIn(ctx.app);

    for (const [route, send] of Object.entries(ACTING_ON_A_USER)) {
      if (route.includes('resend-invite')) continue; // the super administrator has a password
      const fingerprint = await tableFingerprint(ctx);
      const before = await fingerprint();
      const res = await send(desk.session, ctx.adminId);
      expect(res.statusCode, `${route}: ${res.body}`).toBe(403);
      expect(res.json().message, route).toBe(messages.roles.scopeNotHeld);
      expect(await fingerprint(), route).toBe(before);
      expect((await rootSession.get('/api/auth/profile')).statusCode, route).toBe(200);
    }
  });
});

describe("a tenant's member with User Management READ, CREATE and UPDATE", () => {
  it('acts on no admin of the organization: 403 and nothing changed, on every tenant route', async () => {
    const admin = await createTenant(ctx, 'Wider Tenant');
    const roleId = await createRole(ctx, admin.organizationId, 'Team Lead', {
      users: ['READ', 'CREATE', 'UPDATE'],
    });
    const lead = await createTenant(ctx, 'Team Lead', { organizationId: admin.organizationId, roleId });

    for (const [route, send] of Object.entries(ACTING_ON_A_USER)) {
      const target = await createTenant(ctx, 'Target Admin', { organizationId: admin.organizationId });
      await prepare(route, target.userId, target.email);
      const fingerprint = await tableFingerprint(ctx);
      const before = await fingerprint();
      const res = await send(lead.session, target.userId);
      expect(res.statusCode, `${route}: ${res.body}`).toBe(403);
      // The platform operator's routes refuse the member for want of Organization CREATE.
      if (!route.includes('end-sessions') && !route.includes('two-factor')) {
        expect(res.json().message, route).toBe(messages.roles.scopeNotHeld);
      }
      expect(await fingerprint(), route).toBe(before);
    }
  });

  it('still acts on a user whose role is no wider than their own', async () => {
    const admin = await createTenant(ctx, 'Narrow Tenant');
    const roleId = await createRole(ctx, admin.organizationId, 'Team Lead', {
      users: ['READ', 'CREATE', 'UPDATE'],
    });
    const lead = await createTenant(ctx, 'Lead', { organizationId: admin.organizationId, roleId });
    const peer = await createTenant(ctx, 'Peer', { organizationId: admin.organizationId, roleId });
    expect(
      (await ACTING_ON_A_USER['PUT /api/auth/users/:id/deactivate']!(lead.session, peer.userId)).statusCode,
    ).toBe(200);
  });
});
