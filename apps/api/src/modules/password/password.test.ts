import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { activityEntries, oneTimeTokens, users } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/tokens.js';
import { issueOneTimeToken } from './one-time-tokens.repo.js';
import { createTestApp, Session, STRONG_PASSWORD, type TestContext } from '../../../test/harness.js';
import { createTenant, type TestTenant } from '../../../test/fixtures.js';
import { PASSWORD_CHANGE_LIMIT } from './password.service.js';

let ctx: TestContext;
let acme: TestTenant;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createTenant(ctx, 'Acme', { subscribed: true });
});
afterAll(() => ctx.close());

const URL = '/api/auth/users/password';
const NEW_PASSWORD = 'N3w-Passw0rd!';

async function passwordHash(userId: string) {
  const [row] = await ctx.database.db
    .select({ h: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  return row!.h;
}

describe('change password', () => {
  it('checks the current password first (401), then new ≠ current, then strength (400)', async () => {
    const before = await passwordHash(acme.userId);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ newPassword: NEW_PASSWORD }, 400, messages.password.currentRequired],
      [{ currentPassword: '', newPassword: NEW_PASSWORD }, 400, messages.password.currentRequired],
      [{ currentPassword: STRONG_PASSWORD, newPassword: '' }, 400, messages.password.newRequired],
      [
        { currentPassword: 'Wrong-Passw0rd!', newPassword: NEW_PASSWORD },
        401,
        messages.password.currentIncorrect,
      ],
      [{ currentPassword: 'Wrong-Passw0rd!', newPassword: 'weak' }, 401, messages.password.currentIncorrect],
      [
        { currentPassword: STRONG_PASSWORD, newPassword: STRONG_PASSWORD },
        400,
        messages.password.sameAsCurrent,
      ],
      [{ currentPassword: STRONG_PASSWORD, newPassword: 'alllowercase1!' }, 400, messages.password.weak],
      [{ currentPassword: STRONG_PASSWORD, newPassword: 'Sh0rt!' }, 400, messages.password.weak],
    ];
    for (const [body, status, message] of cases) {
      const res = await acme.session.put(URL, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect(await passwordHash(acme.userId)).toBe(before);
    // A wrong current password does not sign the user out.
    expect((await acme.session.get('/api/auth/auth-session/me')).statusCode).toBe(200);
  });

  it("refuses to change another user's password (403)", async () => {
    const res = await acme.session.put(URL, {
      userId: ctx.adminId,
      currentPassword: STRONG_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(403);
  });

  it('changes it, ends the other sessions, keeps this one, and the new password signs in', async () => {
    const other = new Session(ctx.app);
    expect((await other.login(acme.email, STRONG_PASSWORD)).statusCode).toBe(200);

    const res = await acme.session.put(URL, {
      userId: acme.userId,
      currentPassword: STRONG_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.password.changed);

    expect((await other.get('/api/auth/auth-session/me')).statusCode).toBe(401);
    expect((await acme.session.get('/api/auth/auth-session/me')).statusCode).toBe(200);
    expect((await new Session(ctx.app).login(acme.email, STRONG_PASSWORD)).statusCode).toBe(401);
    expect((await new Session(ctx.app).login(acme.email, NEW_PASSWORD)).statusCode).toBe(200);

    const log = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(
        and(eq(activityEntries.entityId, acme.userId), eq(activityEntries.message, 'Changed the password')),
      );
    expect(log).toHaveLength(1);
  });

  it('limits attempts per user (429), so the route cannot be used to guess the password', async () => {
    const guesser = await createTenant(ctx, 'Guesser', { subscribed: true });
    const statuses: number[] = [];
    for (let i = 0; i <= PASSWORD_CHANGE_LIMIT; i++) {
      const res = await guesser.session.put(URL, {
        currentPassword: `Guess-${i}-Passw0rd!`,
        newPassword: NEW_PASSWORD,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, PASSWORD_CHANGE_LIMIT)).toEqual(Array(PASSWORD_CHANGE_LIMIT).fill(401));
    expect(statuses[PASSWORD_CHANGE_LIMIT]).toBe(429);
    const blocked = await guesser.session.put(URL, {
      currentPassword: STRONG_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(messages.password.tooManyAttempts);
  });
});

describe('checking a reset or invite link before it is used', () => {
  const CHECK = '/api/auth/reset-password/check';
  const check = (app: TestContext['app'], token: string, remoteAddress?: string) =>
    app.inject({
      method: 'POST',
      url: CHECK,
      payload: { token },
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  it('answers usable for a live token without using it, and not usable once it is used', async () => {
    const beta = await createTenant(ctx, 'Beta Check', { subscribed: true });
    const token = await issueOneTimeToken(ctx.database.db, beta.userId, 'invite', 1);
    for (let i = 0; i < 2; i++) {
      const res = await check(ctx.app, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { usable: true } });
    }
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: NEW_PASSWORD },
    });
    expect(reset.statusCode).toBe(200);
    expect((await check(ctx.app, token)).json()).toEqual({ success: true, data: { usable: false } });
  });

  it('answers alike for unknown, expired and malformed tokens', async () => {
    const gamma = await createTenant(ctx, 'Gamma Check', { subscribed: true });
    const expired = await issueOneTimeToken(ctx.database.db, gamma.userId, 'password_reset', 1);
    await ctx.database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.tokenHash, sha256Hex(expired)));
    const answers = await Promise.all(
      [expired, sha256Hex('made-up'), 'x', ''].map(async (token) => {
        const res = await check(ctx.app, token);
        return [res.statusCode, res.body];
      }),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify([200, JSON.stringify({ success: true, data: { usable: false } })])]),
    );
  });

  it('is public, and limited per address with the dead tokens reset-password counts', async () => {
    const limited = await createTestApp({ limits: { resetPerAddress: 3 } });
    try {
      const codes = [];
      for (let i = 0; i < 2; i++) codes.push((await check(limited.app, sha256Hex(`dead-${i}`))).statusCode);
      // A dead token sent to reset-password spends the same budget.
      const reset = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: sha256Hex('dead-reset'), password: NEW_PASSWORD },
      });
      codes.push(reset.statusCode);
      for (let i = 0; i < 2; i++) codes.push((await check(limited.app, sha256Hex(`late-${i}`))).statusCode);
      expect(codes).toEqual([200, 200, 400, 429, 429]);
      expect((await check(limited.app, sha256Hex('other'), '203.0.113.51')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
