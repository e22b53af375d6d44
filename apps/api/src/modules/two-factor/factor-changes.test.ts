/**
 * What a change of the second factor does to sessions, and recovering from a lost authenticator
 * (issue 29): a session opened with the password alone never becomes a full one, turning the factor
 * on or off ends the other sessions, a recovery code proves the owner where a code cannot, and the
 * platform operator can reset a user's factor.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, SYSTEM_ROLES } from '@portal/shared';
import { activityEntries, emailOutbox, roles, sessions, users, userTotp } from '../../db/schema/index.js';
import {
  ADMIN_EMAIL,
  createTestApp,
  createUserDirect,
  enrolTwoFactor,
  forgetUsedCodes,
  Session,
  signIn,
  STRONG_PASSWORD,
  totpCode,
  type TestContext,
} from '../../../test/harness.js';
import { createRole, createTenant } from '../../../test/fixtures.js';
import { systemActor } from '../../core/actor.js';
import { resetSecondFactor } from './index.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const refresh = (s: Session) => s.post('/api/auth/auth-session/refresh-token');

/** Signs in with the password and, when asked, a code of `secret`. */
async function signInWith(email: string, secret?: string) {
  await forgetUsedCodes(ctx.app, email);
  return signIn(ctx.app, email, STRONG_PASSWORD, secret);
}

async function platformOrganizationId() {
  const [row] = await ctx.database.db
    .select({ id: users.organizationId })
    .from(users)
    .where(eq(users.id, ctx.adminId));
  return row!.id;
}

/** A second super administrator without a factor yet, as on a fresh portal. */
async function newSuperAdmin() {
  const [root] = await ctx.database.db.select().from(roles).where(eq(roles.name, SYSTEM_ROLES.superAdmin));
  const email = `root-${Math.random().toString(36).slice(2, 8)}@portal.test`;
  const id = await createUserDirect(ctx, {
    email,
    roleId: root!.id,
    organizationId: await platformOrganizationId(),
  });
  return { id, email };
}

describe('a session opened with the password alone', () => {
  it("is refused once the owner enrols elsewhere, refresh included, whoever's role (tenant admin)", async () => {
    const owner = await createTenant(ctx, 'Thief Tenant');
    const thief = await signInWith(owner.email);
    expect((await thief.get('/api/auth/profile')).statusCode).toBe(200);

    await enrolTwoFactor(owner.session);

    expect((await thief.get('/api/auth/profile')).statusCode).toBe(401);
    expect((await refresh(thief)).statusCode).toBe(401);
    // The owner's own session typed the code: it goes on.
    expect((await owner.session.get('/api/auth/profile')).statusCode).toBe(200);
  });

  it('of a super administrator before enrolment reaches nothing after it (the fresh portal)', async () => {
    const root = await newSuperAdmin();
    const thief = await signInWith(root.email);
    const owner = await signInWith(root.email);
    expect((await thief.get('/api/auth/users?pageSize=1')).statusCode).toBe(403);

    await enrolTwoFactor(owner);

    expect((await owner.get('/api/auth/users?pageSize=1')).statusCode).toBe(200);
    expect((await thief.get('/api/auth/users?pageSize=1')).statusCode).toBe(401);
    expect((await thief.put('/api/auth/tax-profile', {})).statusCode).toBe(401);
    expect((await refresh(thief)).statusCode).toBe(401);
  });

  it('is refused by the gate itself, not only because enrolment ended it', async () => {
    const owner = await createTenant(ctx, 'Gate Tenant');
    const thief = await signInWith(owner.email);
    await enrolTwoFactor(owner.session);
    // Were its rows never ended (a race with the enrolment), the session still has no second factor.
    await ctx.database.db
      .update(sessions)
      .set({ revokedAt: null })
      .where(and(eq(sessions.userId, owner.userId), eq(sessions.secondFactor, false)));
    expect((await thief.get('/api/auth/profile')).statusCode).toBe(401);
    expect((await refresh(thief)).statusCode).toBe(401);
  });

  it('a sign-in with the code is a full session, and stays one through refreshes', async () => {
    const owner = await createTenant(ctx, 'Full Tenant');
    const { secret } = await enrolTwoFactor(owner.session);
    const second = await signInWith(owner.email, secret);
    expect((await refresh(second)).statusCode).toBe(200);
    expect((await second.get('/api/auth/profile')).statusCode).toBe(200);
    const rows = await ctx.database.db
      .select({ secondFactor: sessions.secondFactor })
      .from(sessions)
      .where(and(eq(sessions.userId, owner.userId), isNull(sessions.revokedAt)));
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((r) => r.secondFactor)).toBe(true);
  });
});

describe('turning the factor off', () => {
  it("ends the user's other sessions and keeps this one", async () => {
    const owner = await createTenant(ctx, 'Off Tenant');
    const { secret } = await enrolTwoFactor(owner.session);
    const other = await signInWith(owner.email, secret);
    await forgetUsedCodes(ctx.app, owner.email);
    const off = await owner.session.post('/api/auth/two-factor/disable', {
      password: STRONG_PASSWORD,
      code: totpCode(secret),
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await other.get('/api/auth/profile')).statusCode).toBe(401);
    expect((await owner.session.get('/api/auth/profile')).statusCode).toBe(200);
  });
});

describe('a lost authenticator', () => {
  it('after a recovery-code sign-in: the password and a recovery code set up a new authenticator', async () => {
    const owner = await createTenant(ctx, 'Lost Tenant');
    const { secret: lost, recoveryCodes } = await enrolTwoFactor(owner.session);
    const elsewhere = await signInWith(owner.email, lost);

    // Sign in with a recovery code: the phone is gone.
    const session = new Session(ctx.app);
    const step = await session.post('/api/auth/auth-session/login', {
      identifier: owner.email,
      password: STRONG_PASSWORD,
    });
    const signedIn = await session.post('/api/auth/auth-session/two-factor', {
      challenge: step.json().data.challenge,
      code: recoveryCodes[0],
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);

    // The spent code, a wrong password or a made-up code prove nothing and change nothing.
    for (const body of [
      { password: STRONG_PASSWORD, code: recoveryCodes[0] },
      { password: 'Not-The-Passw0rd!', code: recoveryCodes[1] },
      { password: STRONG_PASSWORD, code: 'aaaaa-bbbbb' },
    ]) {
      const refused = await session.post('/api/auth/two-factor/replace', body);
      expect(refused.statusCode, refused.body).toBe(400);
    }
    expect(
      (await ctx.database.db.select().from(userTotp).where(eq(userTotp.userId, owner.userId)))[0]!
        .confirmedAt,
    ).not.toBeNull();

    const replaced = await session.post('/api/auth/two-factor/replace', {
      password: STRONG_PASSWORD,
      code: recoveryCodes[1],
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().message).toBe(messages.twoFactor.replaceStarted);
    const fresh = replaced.json().data.secret as string;
    expect(fresh).not.toBe(lost);
    // Other sessions ended with the old factor; this one confirms the new one.
    expect((await elsewhere.get('/api/auth/profile')).statusCode).toBe(401);
    const enabled = await session.post('/api/auth/two-factor/enable', { code: totpCode(fresh) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const newCodes = enabled.json().data.recoveryCodes as string[];
    expect(newCodes).toHaveLength(10);

    // The new authenticator signs in; the lost one and the old recovery codes do not.
    await forgetUsedCodes(ctx.app, owner.email);
    const withOld = new Session(ctx.app);
    const oldStep = await withOld.post('/api/auth/auth-session/login', {
      identifier: owner.email,
      password: STRONG_PASSWORD,
    });
    const challenge = oldStep.json().data.challenge as string;
    for (const code of [totpCode(lost), recoveryCodes[2]!]) {
      const res = await withOld.post('/api/auth/auth-session/two-factor', { challenge, code });
      expect(res.statusCode).toBe(401);
    }
    expect((await signInWith(owner.email, fresh).then((s) => s.get('/api/auth/profile'))).statusCode).toBe(
      200,
    );
  });

  it('a recovery code also turns the factor off or makes new recovery codes, once each', async () => {
    const owner = await createTenant(ctx, 'Codes Tenant');
    const { recoveryCodes } = await enrolTwoFactor(owner.session);
    const made = await owner.session.post('/api/auth/two-factor/recovery-codes', {
      password: STRONG_PASSWORD,
      code: recoveryCodes[0],
    });
    expect(made.statusCode, made.body).toBe(200);
    const fresh = made.json().data.recoveryCodes as string[];
    // The old set is gone; a new one turns it off.
    const stale = await owner.session.post('/api/auth/two-factor/disable', {
      password: STRONG_PASSWORD,
      code: recoveryCodes[1],
    });
    expect(stale.statusCode).toBe(400);
    const off = await owner.session.post('/api/auth/two-factor/disable', {
      password: STRONG_PASSWORD,
      code: fresh[0],
    });
    expect(off.statusCode, off.body).toBe(200);
  });
});

describe("the platform operator resets a user's factor", () => {
  it('ends their sessions, mails them, records it; they sign in with the password and enrol again', async () => {
    const user = await createTenant(ctx, 'Reset Tenant');
    const { secret } = await enrolTwoFactor(user.session);
    const operator = await signIn(ctx.app);

    // The Users screen shows who has a factor, in its list and a user's details.
    const listed = await operator.get(`/api/auth/users?search=${encodeURIComponent(user.email)}`);
    expect(listed.json().data.map((u: { twoFactorEnabled: boolean }) => u.twoFactorEnabled)).toEqual([true]);
    expect((await operator.get(`/api/auth/users/${user.userId}`)).json().data.twoFactorEnabled).toBe(true);

    const reset = await operator.post(`/api/auth/users/${user.userId}/two-factor/reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().message).toBe(messages.twoFactor.userReset);

    expect((await user.session.get('/api/auth/profile')).statusCode).toBe(401);
    expect(await ctx.database.db.select().from(userTotp).where(eq(userTotp.userId, user.userId))).toEqual([]);
    const mail = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(
        and(eq(emailOutbox.toAddress, user.email), eq(emailOutbox.subject, messages.twoFactor.resetSubject)),
      );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.textBody).toContain('/auth/forgot-password');
    const audit = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityId, user.userId), eq(activityEntries.actorUserId, ctx.adminId)));
    expect(audit.map((a) => a.message)).toContain(`Reset the two-factor sign-in of ${user.username}`);

    // Nothing left to reset; the old secret signs in no more: the password alone does (the role does not require it).
    expect((await operator.post(`/api/auth/users/${user.userId}/two-factor/reset`)).statusCode).toBe(409);
    expect((await operator.get(`/api/auth/users/${user.userId}`)).json().data.twoFactorEnabled).toBe(false);
    const again = await signInWith(user.email);
    expect((await again.get('/api/auth/auth-session/me')).json().data.twoFactor.enabled).toBe(false);
    expect(secret).toBeTruthy();
  });

  it('is refused to a tenant admin, on oneself, and on a wider role (the super administrator)', async () => {
    const tenant = await createTenant(ctx, 'Refused Tenant');
    const member = await createTenant(ctx, 'Refused Member', { organizationId: tenant.organizationId });
    await enrolTwoFactor(member.session);
    expect((await tenant.session.post(`/api/auth/users/${member.userId}/two-factor/reset`)).statusCode).toBe(
      403,
    );

    const operator = await signIn(ctx.app);
    const own = await operator.post(`/api/auth/users/${ctx.adminId}/two-factor/reset`);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(messages.twoFactor.cannotResetOwn);

    // A platform user holding both scopes the act needs, but not everything the super administrator holds.
    const platformOrg = await platformOrganizationId();
    const roleId = await createRole(ctx, platformOrg, `Desk ${Math.random().toString(36).slice(2, 6)}`, {
      users: ['READ', 'UPDATE'],
      organizations: ['READ', 'CREATE'],
    });
    const desk = await createTenant(ctx, 'Desk', { organizationId: platformOrg, roleId });
    const wider = await desk.session.post(`/api/auth/users/${ctx.adminId}/two-factor/reset`);
    expect(wider.statusCode).toBe(403);
    expect(wider.json().message).toBe(messages.roles.scopeNotHeld);
    expect(
      await ctx.database.db.select().from(userTotp).where(eq(userTotp.userId, ctx.adminId)),
    ).toHaveLength(1);
  });
});

describe("the operator's command", () => {
  // Last in the file: it takes the template's super administrator's factor away.
  it('resets the last super administrator, who signs in with the password and must enrol again', async () => {
    const before = await signIn(ctx.app);
    // The operator's command line (cli/reset-two-factor.ts) names the user by email.
    await resetSecondFactor(ctx.app.deps, systemActor('cli'), { email: ADMIN_EMAIL.toUpperCase() });
    expect((await before.get('/api/auth/profile')).statusCode).toBe(401);
    const session = await signIn(ctx.app);
    expect((await session.get('/api/auth/auth-session/me')).json().data.twoFactor).toEqual({
      enabled: false,
      required: true,
    });
    expect((await session.get('/api/auth/users?pageSize=1')).statusCode).toBe(403);
    const audit = await ctx.database.db
      .select({ actor: activityEntries.actorUserId, message: activityEntries.message })
      .from(activityEntries)
      .where(eq(activityEntries.entityId, ctx.adminId));
    expect(audit).toContainEqual({ actor: null, message: expect.stringContaining('(operator command)') });
    await expect(
      resetSecondFactor(ctx.app.deps, systemActor('cli'), { email: 'nobody@portal.test' }),
    ).rejects.toThrow('No account');
  });
});
