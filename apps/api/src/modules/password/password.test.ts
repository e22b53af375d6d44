import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { activityEntries, users } from '../../db/schema/index.js';
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
