/**
 * Usernames and emails are unique across organizations, so an invitation refused as "already exists"
 * tells a tenant that one is in use somewhere. The disclosure is bounded and audited
 * (docs/decisions/023): each refusal is in the organization's activity, and after
 * IDENTITY_CONFLICTS_PER_HOUR the organization's invitations pause for the hour, taken or not.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { activityEntries } from '../../db/schema/index.js';
import { createTestApp, roleIdByName, signIn, type TestContext } from '../../../test/harness.js';
import { createTenant } from '../../../test/fixtures.js';
import { IDENTITY_CONFLICTS_PER_HOUR } from './identity-conflicts.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const invite = (organizationId: string, roleId: string, over: Record<string, unknown> = {}) => {
  const tag = randomUUID().slice(0, 8);
  return {
    username: `invitee.${tag}`,
    email: `invitee.${tag}@disclosure.test`,
    mobileNo: '9876543210',
    client: 'Disclosure Co',
    organizationId,
    roleId,
    isSubscription: false,
    ...over,
  };
};

describe('inviting a username or email of another organization', () => {
  it('is refused, audited, and bounded: after the limit every invitation pauses alike for the hour', async () => {
    const roleId = await roleIdByName(ctx);
    const elsewhere = await createTenant(ctx, 'Other Org');
    const tenant = await createTenant(ctx, 'Curious Org');
    const send = (over: Record<string, unknown> = {}) =>
      tenant.session.post('/api/auth/auth-session/register', invite(tenant.organizationId, roleId, over));

    for (let i = 0; i < IDENTITY_CONFLICTS_PER_HOUR; i++) {
      const res = await send({ email: elsewhere.email.toUpperCase() });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(messages.users.duplicate);
    }
    const audit = await ctx.database.db
      .select({ message: activityEntries.message })
      .from(activityEntries)
      .where(
        and(
          eq(activityEntries.organizationId, tenant.organizationId),
          like(activityEntries.message, 'Refused:%'),
        ),
      );
    expect(audit).toHaveLength(IDENTITY_CONFLICTS_PER_HOUR);
    expect(audit[0]!.message.toLowerCase()).toContain(elsewhere.email.toLowerCase());

    // Past the bound, a taken and a free email answer the same, and nothing is created.
    const taken = await send({ email: elsewhere.email });
    const free = await send();
    expect([taken.statusCode, free.statusCode]).toEqual([429, 429]);
    expect(taken.json()).toEqual(free.json());
    expect(free.json().message).toBe(messages.users.tooManyConflicts);
    // A username change meets the same pause.
    const rename = await tenant.session.put(`/api/auth/users/${tenant.userId}`, {
      username: elsewhere.username,
    });
    expect(rename.statusCode).toBe(429);

    // Another organization, and the platform, are not held up by it.
    expect(
      (
        await elsewhere.session.post(
          '/api/auth/auth-session/register',
          invite(elsewhere.organizationId, roleId),
        )
      ).statusCode,
    ).toBe(201);
    const root = await signIn(ctx.app);
    const platform = await root.post(
      '/api/auth/auth-session/register',
      invite(tenant.organizationId, roleId, { email: elsewhere.email }),
    );
    expect(platform.statusCode).toBe(409);
  });

  it("counts only refusals for a name in use: a tenant's ordinary invitations never pause", async () => {
    const roleId = await roleIdByName(ctx);
    const tenant = await createTenant(ctx, 'Busy Org');
    for (let i = 0; i < IDENTITY_CONFLICTS_PER_HOUR + 2; i++) {
      const res = await tenant.session.post(
        '/api/auth/auth-session/register',
        invite(tenant.organizationId, roleId),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
  });
});
