import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RECOVERY_CODE_PATTERN, SIGN_IN_CHALLENGE_MINUTES, SYSTEM_ROLES } from '@portal/shared';
import {
  emailOutbox,
  rateLimitBuckets,
  recoveryCodes,
  roles,
  users,
  userTotp,
} from '../../db/schema/index.js';
import {
  createTestApp,
  createUserDirect,
  enrolTwoFactor,
  forgetUsedCodes,
  json,
  roleIdByName,
  Session,
  signIn,
  STRONG_PASSWORD,
  totpCode,
  type TestContext,
  withFlippedBit,
} from '../../../test/harness.js';
import { createRole, createTenant } from '../../../test/fixtures.js';
import { decryptSecret, encryptSecret, matchingStep, newRecoveryCodes, newTotpSecret } from './totp.js';
import { deriveTwoFactorKeys } from '../../core/secrets.js';
import { TWO_FACTOR_CHANGE_LIMIT } from './two-factor.service.js';
import { sealChallenge } from './challenge.js';
import { TEST_SESSION_SECRET } from '../../../test/test-database.js';

/** The account-wide cap on wrong codes: above the per-address lock, so both can be seen. */
const CODE_FAILURE_CAP = 8;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    limits: { lockoutThreshold: 5, lockoutMs: 60_000, codeFailuresPerAccount: CODE_FAILURE_CAP },
  });
});
afterAll(() => ctx.close());

let serial = 0;
/** A signed-in user of a new organization, with two-factor sign-in on; its email and secret. */
async function enrolledUser() {
  const tenant = await createTenant(ctx, `Second Factor ${++serial}`);
  const { secret, recoveryCodes: codes } = await enrolTwoFactor(tenant.session);
  return { ...tenant, secret, recoveryCodes: codes };
}

/** The password step alone: the challenge it answers. */
async function passwordStep(email: string, session = new Session(ctx.app)) {
  const res = await session.post('/api/auth/auth-session/login', {
    identifier: email,
    password: STRONG_PASSWORD,
  });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data;
  expect(data.twoFactorRequired).toBe(true);
  expect(res.cookies.map((c) => c.name)).not.toContain('access_token');
  return { session, challenge: data.challenge as string };
}

const secondStep = (session: Session, challenge: string, code: string) =>
  session.post('/api/auth/auth-session/two-factor', { challenge, code });

/** What a client sees of an answer: its status and body. */
const answer = (res: { statusCode: number; body: string }) => ({ status: res.statusCode, body: res.body });

/** Both steps from one client address: the password, then `code` with the challenge it answered. */
async function bothStepsFrom(email: string, address: string, code: string, password = STRONG_PASSWORD) {
  const session = new Session(ctx.app);
  const login = await session.request({
    method: 'POST',
    url: '/api/auth/auth-session/login',
    payload: { identifier: email, password },
    remoteAddress: address,
  });
  expect(login.statusCode, login.body).toBe(200);
  return session.request({
    method: 'POST',
    url: '/api/auth/auth-session/two-factor',
    payload: { challenge: login.json().data.challenge, code },
    remoteAddress: address,
  });
}

/** A six-digit code that is not `secret`'s code of any step near now. */
function wrongCodeFor(secret: string): string {
  const near = [-2, -1, 0, 1, 2].map((d) => totpCode(secret, Date.now() + d * 30_000));
  for (let n = 123_456; ; n++) if (!near.includes(String(n))) return String(n);
}

describe('TOTP and its secrets', () => {
  it('computes the RFC 6238 test vectors (SHA-1, 6 digits)', () => {
    // RFC 6238 Appendix B: the ASCII secret "12345678901234567890"; its 8-digit codes end in these 6.
    const base32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    const vectors: [number, string][] = [
      [59, '287082'],
      [1_111_111_109, '081804'],
      [1_234_567_890, '005924'],
      [2_000_000_000, '279037'],
    ];
    for (const [seconds, code] of vectors) {
      expect(matchingStep(base32, code, seconds * 1000)).toBe(Math.floor(seconds / 30));
    }
  });

  it('accepts a code one step either side, and no further', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = Math.floor(now / 30_000);
    for (const delta of [-1, 0, 1]) {
      expect(matchingStep(secret, totpCode(secret, now + delta * 30_000), now)).toBe(step + delta);
    }
    for (const delta of [-2, 2])
      expect(matchingStep(secret, totpCode(secret, now + delta * 30_000), now)).toBeNull();
  });

  it('keeps secrets encrypted: a changed byte or another SESSION_SECRET cannot read them', () => {
    const secret = newTotpSecret();
    const { secretKey } = deriveTwoFactorKeys('one-secret-one-secret-one-secret-1234');
    const stored = encryptSecret(secretKey, secret);
    expect(stored).not.toContain(secret);
    expect(decryptSecret(secretKey, stored)).toBe(secret);
    const other = deriveTwoFactorKeys('another-secret-another-secret-12345678').secretKey;
    expect(decryptSecret(other, stored)).toBeNull();
    expect(decryptSecret(secretKey, withFlippedBit(stored))).toBeNull();
    expect(decryptSecret(secretKey, 'v1.bad')).toBeNull();
  });

  it('makes ten distinct recovery codes of 50 random bits', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(RECOVERY_CODE_PATTERN);
  });
});

describe('enrolment', () => {
  it('shows a secret and its otpauth URI, turns on with the first code, and answers 10 recovery codes once', async () => {
    const tenant = await createTenant(ctx, 'Enrols');
    const before = json<{ data: { enabled: boolean; required: boolean } }>(
      await tenant.session.get('/api/auth/two-factor'),
    );
    expect(before.data).toMatchObject({ enabled: false, required: false });

    const setup = await tenant.session.post('/api/auth/two-factor/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUri } = setup.json().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Interview Credits Portal');
    expect(decodeURIComponent(uri.pathname)).toContain(tenant.email);

    // Stored encrypted, never as typed.
    const [row] = await ctx.database.db.select().from(userTotp).where(eq(userTotp.userId, tenant.userId));
    expect(row!.secretCiphertext).not.toContain(secret);
    expect(row!.confirmedAt).toBeNull();

    const wrong = await tenant.session.post('/api/auth/two-factor/enable', { code: wrongCodeFor(secret) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(messages.twoFactor.codeInvalid);
    const badShape = await tenant.session.post('/api/auth/two-factor/enable', { code: '12ab56' });
    expect(badShape.statusCode).toBe(400);
    expect(badShape.json().message).toBe(messages.twoFactor.codeFormat);

    const enabled = await tenant.session.post('/api/auth/two-factor/enable', { code: totpCode(secret) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json().message).toBe(messages.twoFactor.enabled);
    const codes = enabled.json().data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);

    // Only keyed hashes are kept.
    const stored = await ctx.database.db
      .select({ hash: recoveryCodes.codeHash })
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, tenant.userId));
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(stored.map((s) => s.hash).join()).not.toContain(code.replace('-', ''));

    const status = json<{ data: Record<string, unknown> }>(await tenant.session.get('/api/auth/two-factor'));
    expect(status.data).toMatchObject({ enabled: true, required: false, recoveryCodesLeft: 10 });
    // A second setup cannot replace a confirmed secret.
    expect((await tenant.session.post('/api/auth/two-factor/setup')).statusCode).toBe(409);
    // The session that enrolled stays signed in.
    expect((await tenant.session.get('/api/auth/auth-session/me')).json().data.twoFactor).toEqual({
      enabled: true,
      required: false,
    });
  });

  it('refuses enable without a waiting secret', async () => {
    const tenant = await createTenant(ctx, 'No Setup');
    const res = await tenant.session.post('/api/auth/two-factor/enable', { code: '123456' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.twoFactor.noPendingSetup);
  });
});

describe('sign-in with a second factor', () => {
  it('answers a challenge to the password, and a session to the code', async () => {
    const user = await enrolledUser();
    const { session, challenge } = await passwordStep(user.email);
    await forgetUsedCodes(ctx.app, user.email);
    const done = await secondStep(session, challenge, totpCode(user.secret));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({
      id: user.userId,
      twoFactor: { enabled: true, required: false },
    });
    expect((await session.get('/api/auth/auth-session/me')).statusCode).toBe(200);
    // The challenge works once: refused as spent even with its code's step free again.
    await forgetUsedCodes(ctx.app, user.email);
    const again = await secondStep(new Session(ctx.app), challenge, totpCode(user.secret));
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(messages.twoFactor.challengeExpired);
  });

  it("spends an account's earlier challenges with a completed sign-in, not its later ones", async () => {
    const user = await enrolledUser();
    const earlier = await passwordStep(user.email);
    const completed = await passwordStep(user.email);
    await forgetUsedCodes(ctx.app, user.email);
    expect((await secondStep(completed.session, completed.challenge, totpCode(user.secret))).statusCode).toBe(
      200,
    );
    const later = await passwordStep(user.email);

    await forgetUsedCodes(ctx.app, user.email);
    const stale = await secondStep(earlier.session, earlier.challenge, totpCode(user.secret));
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe(messages.twoFactor.challengeExpired);
    expect((await secondStep(later.session, later.challenge, totpCode(user.secret))).statusCode).toBe(200);
  });

  it('refuses a challenge whose factor was replaced after the password step, and writes nothing for it', async () => {
    const user = await enrolledUser();
    const { session, challenge } = await passwordStep(user.email);
    // Re-enrolled (the same secret for brevity: a new encryption of it is a new stored factor).
    const { secretKey } = deriveTwoFactorKeys(TEST_SESSION_SECRET);
    await ctx.database.db
      .update(userTotp)
      .set({ secretCiphertext: encryptSecret(secretKey, user.secret), lastUsedStep: null })
      .where(eq(userTotp.userId, user.userId));
    const res = await secondStep(session, challenge, totpCode(user.secret));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(messages.twoFactor.challengeExpired);
    const [row] = await ctx.database.db.select().from(userTotp).where(eq(userTotp.userId, user.userId));
    expect(row).toMatchObject({ lastUsedStep: null, spentChallengesUntil: null });
  });

  it('refuses a replayed code: each code signs in once', async () => {
    const user = await enrolledUser();
    await forgetUsedCodes(ctx.app, user.email);
    const code = totpCode(user.secret);
    const first = await passwordStep(user.email);
    expect((await secondStep(first.session, first.challenge, code)).statusCode).toBe(200);
    const second = await passwordStep(user.email);
    const replayed = await secondStep(second.session, second.challenge, code);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toBe(messages.twoFactor.codeInvalid);
  });

  it('takes one of two requests racing with the same code', async () => {
    const user = await enrolledUser();
    await forgetUsedCodes(ctx.app, user.email);
    const code = totpCode(user.secret);
    const [a, b] = await Promise.all([passwordStep(user.email), passwordStep(user.email)]);
    const answers = await Promise.all([
      secondStep(a.session, a.challenge, code),
      secondStep(b.session, b.challenge, code),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('accepts each recovery code once, in either case and with or without its dash', async () => {
    const user = await enrolledUser();
    const [first, second] = user.recoveryCodes;
    const a = await passwordStep(user.email);
    expect((await secondStep(a.session, a.challenge, first!.toUpperCase())).statusCode).toBe(200);
    const b = await passwordStep(user.email);
    const reused = await secondStep(b.session, b.challenge, first!);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(messages.twoFactor.codeInvalid);
    expect((await secondStep(b.session, b.challenge, second!.replace('-', ''))).statusCode).toBe(200);
    const status = await b.session.get('/api/auth/two-factor');
    expect(status.json().data.recoveryCodesLeft).toBe(8);
  });

  it('answers a wrong code, a replayed code and a locked account alike, and counts failures toward the lock', async () => {
    const user = await enrolledUser();
    const address = '198.51.100.7';
    const step = (code: string) => bothStepsFrom(user.email, address, code);

    // A code used once, then replayed.
    await forgetUsedCodes(ctx.app, user.email);
    const used = totpCode(user.secret);
    expect((await step(used)).statusCode).toBe(200);
    const replayed = answer(await step(used));
    const wrong = answer(await step(wrongCodeFor(user.secret)));
    expect(replayed).toEqual(wrong);
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).message).toBe(messages.twoFactor.codeInvalid);

    // Two failures counted; three more wrong codes lock the account from this address.
    const failures = async () => {
      const [row] = await ctx.database.db
        .select({ count: rateLimitBuckets.count })
        .from(rateLimitBuckets)
        .where(eq(rateLimitBuckets.key, `signin-lock:${user.userId}:${address}`));
      return row?.count ?? 0;
    };
    expect(await failures()).toBe(2);
    for (let i = 0; i < 3; i++) await step(wrongCodeFor(user.secret));
    expect(await failures()).toBe(5);

    // Locked: the right code answers as a wrong one, and so does the password step.
    await forgetUsedCodes(ctx.app, user.email);
    const lockedSession = new Session(ctx.app);
    const lockedPassword = await lockedSession.request({
      method: 'POST',
      url: '/api/auth/auth-session/login',
      payload: { identifier: user.email, password: STRONG_PASSWORD },
      remoteAddress: address,
    });
    expect(lockedPassword.statusCode).toBe(401);
    expect(lockedPassword.json().message).toBe(messages.login.invalidCredentials);
    // A challenge issued before the lock: its right code is refused like a wrong one.
    const beforeLock = await passwordStep(user.email);
    const locked = answer(
      await beforeLock.session.request({
        method: 'POST',
        url: '/api/auth/auth-session/two-factor',
        payload: { challenge: beforeLock.challenge, code: totpCode(user.secret) },
        remoteAddress: address,
      }),
    );
    expect(locked).toEqual(wrong);
    // Elsewhere the owner still signs in: the lock is per account and address.
    await forgetUsedCodes(ctx.app, user.email);
    const elsewhere = await passwordStep(user.email);
    expect((await secondStep(elsewhere.session, elsewhere.challenge, totpCode(user.secret))).statusCode).toBe(
      200,
    );
  });

  it('keeps failures counted after a right password: only a right code clears them', async () => {
    const user = await enrolledUser();
    const address = '198.51.100.8';
    for (let i = 0; i < 5; i++) await bothStepsFrom(user.email, address, wrongCodeFor(user.secret));
    const after = await new Session(ctx.app).request({
      method: 'POST',
      url: '/api/auth/auth-session/login',
      payload: { identifier: user.email, password: STRONG_PASSWORD },
      remoteAddress: address,
    });
    expect(after.statusCode).toBe(401);
  });

  it('caps wrong codes per account from all addresses: then the right code is refused alike, the owner is mailed once, and a new password lets them in', async () => {
    const user = await enrolledUser();
    const stepFrom = (address: string, code: string, password?: string) =>
      bothStepsFrom(user.email, address, code, password);
    const capMails = async () => {
      await ctx.app.deps.jobs.settled();
      return (await ctx.database.db.select().from(emailOutbox)).filter(
        (m) => m.toAddress === user.email && m.subject === messages.twoFactor.codeFailuresSubject,
      );
    };

    // One wrong code from each of CAP addresses: none comes near its own lock of 5.
    const wrong = answer(await stepFrom('203.0.113.1', wrongCodeFor(user.secret)));
    expect(wrong.status).toBe(401);
    for (let i = 2; i <= CODE_FAILURE_CAP; i++)
      expect(answer(await stepFrom(`203.0.113.${i}`, wrongCodeFor(user.secret)))).toEqual(wrong);
    // The right code from yet another address: refused with the same answer, and not spent.
    await forgetUsedCodes(ctx.app, user.email);
    const code = totpCode(user.secret);
    expect(answer(await stepFrom('203.0.113.100', code))).toEqual(wrong);
    expect(answer(await stepFrom('203.0.113.101', code))).toEqual(wrong);

    // The owner hears of it once, with the address, and a link from configuration to a new password.
    const [mail, ...more] = await capMails();
    expect(more).toHaveLength(0);
    expect(mail!.textBody).toContain(`${CODE_FAILURE_CAP} wrong sign-in codes`);
    expect(mail!.textBody).toContain('from 203.0.113.');
    expect(mail!.textBody).toContain(`${ctx.app.deps.env.publicOrigin}/auth/forgot-password`);

    // A new password forgets the codes that failed: the owner signs in at once.
    const forgot = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: user.email },
    });
    expect(forgot.statusCode).toBe(200);
    await ctx.app.deps.jobs.settled();
    const resetMail = (await ctx.database.db.select().from(emailOutbox)).find(
      (m) => m.toAddress === user.email && m.textBody.includes('/auth/reset-password?token='),
    );
    const token = decodeURIComponent(/token=([^\s]+)/.exec(resetMail!.textBody)![1]!);
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'N3w-Passw0rd!' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await forgetUsedCodes(ctx.app, user.email);
    const after = await stepFrom('203.0.113.100', totpCode(user.secret), 'N3w-Passw0rd!');
    expect(after.statusCode, after.body).toBe(200);
    expect(await capMails()).toHaveLength(1);
  });

  it('forgets wrong codes from all addresses when the signed-in owner changes the password', async () => {
    const user = await enrolledUser();
    for (let i = 1; i <= CODE_FAILURE_CAP; i++)
      await bothStepsFrom(user.email, `192.0.2.${i}`, wrongCodeFor(user.secret));
    await forgetUsedCodes(ctx.app, user.email);
    const capped = await passwordStep(user.email);
    expect((await secondStep(capped.session, capped.challenge, totpCode(user.secret))).statusCode).toBe(401);
    const changed = await user.session.put('/api/auth/users/password', {
      currentPassword: STRONG_PASSWORD,
      newPassword: 'N3w-Passw0rd!',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await forgetUsedCodes(ctx.app, user.email);
    const session = new Session(ctx.app);
    const login = await session.post('/api/auth/auth-session/login', {
      identifier: user.email,
      password: 'N3w-Passw0rd!',
    });
    expect((await secondStep(session, login.json().data.challenge, totpCode(user.secret))).statusCode).toBe(
      200,
    );
  });

  it('refuses an unknown or expired challenge, and checks the code shape first', async () => {
    const unknown = await secondStep(new Session(ctx.app), 'x'.repeat(43), '123456');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(messages.twoFactor.challengeExpired);
    const user = await enrolledUser();
    const [row] = await ctx.database.db.select().from(userTotp).where(eq(userTotp.userId, user.userId));
    const { challengeKey } = deriveTwoFactorKeys(TEST_SESSION_SECRET);
    const expired = sealChallenge(challengeKey, {
      userId: user.userId,
      issuedAt: new Date(Date.now() - SIGN_IN_CHALLENGE_MINUTES * 60_000),
      secretCiphertext: row!.secretCiphertext,
    });
    await forgetUsedCodes(ctx.app, user.email);
    const late = await secondStep(new Session(ctx.app), expired.token, totpCode(user.secret));
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(messages.twoFactor.challengeExpired);
    const shape = await secondStep(new Session(ctx.app), 'x'.repeat(43), 'not a code');
    expect(shape.statusCode).toBe(400);
    expect(shape.json().message).toBe(messages.twoFactor.codeOrRecoveryFormat);
  });
});

describe('turning it off and new recovery codes', () => {
  it('need the password and a current code', async () => {
    const user = await enrolledUser();
    await forgetUsedCodes(ctx.app, user.email);
    const wrongPassword = await user.session.post('/api/auth/two-factor/recovery-codes', {
      password: 'Not-The-Passw0rd!',
      code: totpCode(user.secret),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe(messages.password.currentIncorrect);
    const wrongCode = await user.session.post('/api/auth/two-factor/recovery-codes', {
      password: STRONG_PASSWORD,
      code: wrongCodeFor(user.secret),
    });
    expect(wrongCode.json().message).toBe(messages.twoFactor.codeInvalid);

    const made = await user.session.post('/api/auth/two-factor/recovery-codes', {
      password: STRONG_PASSWORD,
      code: totpCode(user.secret),
    });
    expect(made.statusCode, made.body).toBe(200);
    const fresh = made.json().data.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    // The old codes stopped working.
    const a = await passwordStep(user.email);
    expect((await secondStep(a.session, a.challenge, user.recoveryCodes[0]!)).statusCode).toBe(401);
    expect((await secondStep(a.session, a.challenge, fresh[0]!)).statusCode).toBe(200);

    await forgetUsedCodes(ctx.app, user.email);
    const off = await user.session.post('/api/auth/two-factor/disable', {
      password: STRONG_PASSWORD,
      code: totpCode(user.secret),
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().message).toBe(messages.twoFactor.disabled);
    // The password alone signs in again.
    const plain = await new Session(ctx.app).login(user.email, STRONG_PASSWORD);
    expect(plain.json().data.twoFactor).toEqual({ enabled: false, required: false });
  });

  it('are limited per user: a stolen session cannot guess codes there', async () => {
    const user = await enrolledUser();
    const answers: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await user.session.post('/api/auth/two-factor/disable', {
        password: STRONG_PASSWORD,
        code: wrongCodeFor(user.secret),
      });
      answers.push(res.statusCode);
    }
    // Enabling took one of the window's tries.
    expect(answers.indexOf(429)).toBe(TWO_FACTOR_CHANGE_LIMIT - 1);
    expect(answers.slice(0, TWO_FACTOR_CHANGE_LIMIT - 1).every((s) => s === 400)).toBe(true);
    expect(answers.slice(TWO_FACTOR_CHANGE_LIMIT - 1).every((s) => s === 429)).toBe(true);
  });
});

describe('who must enrol', () => {
  it('leads a super administrator without a factor nowhere but enrolment and sign-out', async () => {
    const [root] = await ctx.database.db.select().from(roles).where(eq(roles.name, SYSTEM_ROLES.superAdmin));
    const [platformOrg] = await ctx.database.db
      .select({ id: users.organizationId })
      .from(users)
      .where(eq(users.id, ctx.adminId));
    const email = `new-root-${Date.now()}@portal.test`;
    await createUserDirect(ctx, { email, roleId: root!.id, organizationId: platformOrg!.id });
    const session = await signIn(ctx.app, email, STRONG_PASSWORD);
    const me = await session.get('/api/auth/auth-session/me');
    expect(me.json().data.twoFactor).toEqual({ enabled: false, required: true });

    // Every other signed-in route refuses, each with the same answer.
    const open = new Set([
      'GET /api/auth/auth-session/me',
      'POST /api/auth/auth-session/logout',
      'GET /api/auth/two-factor',
      'POST /api/auth/two-factor/setup',
      'POST /api/auth/two-factor/enable',
    ]);
    const gated = ctx.app.routeAccess.filter(
      (r) => r.method !== 'HEAD' && (r.access?.kind === 'signedIn' || r.access?.kind === 'permission'),
    );
    const allowed = gated
      .filter((r) => r.access?.kind === 'signedIn' && r.access.beforeEnrolment)
      .map((r) => `${r.method} ${r.url}`);
    expect(allowed.sort()).toEqual([...open].sort());
    for (const route of gated.filter((r) => !open.has(`${r.method} ${r.url}`))) {
      const url = route.url.replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000');
      const res = await session.request({ method: route.method as 'GET', url, payload: {} });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().message).toBe(messages.twoFactor.enrolmentRequired);
    }

    // Enrolled, the same session reaches everything.
    await enrolTwoFactor(session);
    expect((await session.get('/api/auth/users?pageSize=1')).statusCode).toBe(200);
  });

  it('requires it of a role the platform operator flags, system roles too, and not the super admin role', async () => {
    const root = await signIn(ctx.app);
    const tenant = await createTenant(ctx, 'Policy Co');
    const memberRole = await createRole(ctx, tenant.organizationId, 'Policy Member', { dashboard: ['READ'] });
    const member = await createTenant(ctx, 'Policy Member', {
      organizationId: tenant.organizationId,
      roleId: memberRole,
    });

    // A tenant admin holding roles UPDATE still may not.
    const byTenant = await tenant.session.put(`/api/auth/roles/${memberRole}/two-factor`, { required: true });
    expect(byTenant.statusCode).toBe(403);
    expect(byTenant.json().message).toBe(messages.twoFactor.onlyPlatformRequires);

    const flagged = await root.put(`/api/auth/roles/${memberRole}/two-factor`, { required: true });
    expect(flagged.statusCode, flagged.body).toBe(200);
    expect(flagged.json().data.requireTwoFactor).toBe(true);
    expect(flagged.json().message).toBe(messages.twoFactor.roleRequired);
    // The member's own session is refused at its next request, and led to enrol.
    const refused = await member.session.get('/api/auth/dashboard');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.twoFactor.enrolmentRequired);
    await enrolTwoFactor(member.session);
    expect((await member.session.get('/api/auth/dashboard')).statusCode).toBe(200);

    // The admin system role can be flagged too.
    const adminRole = await roleIdByName(ctx, SYSTEM_ROLES.admin);
    expect((await root.put(`/api/auth/roles/${adminRole}/two-factor`, { required: true })).statusCode).toBe(
      200,
    );
    expect((await tenant.session.get('/api/auth/dashboard')).statusCode).toBe(403);
    expect((await root.put(`/api/auth/roles/${adminRole}/two-factor`, { required: false })).statusCode).toBe(
      200,
    );
    expect((await tenant.session.get('/api/auth/dashboard')).statusCode).toBe(200);

    const superRole = await roleIdByName(ctx, SYSTEM_ROLES.superAdmin);
    const off = await root.put(`/api/auth/roles/${superRole}/two-factor`, { required: false });
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe(messages.twoFactor.superAdminAlwaysRequired);
  });
});

describe('keyed hashes', () => {
  it('stores recovery codes as HMACs under a key derived from SESSION_SECRET, not their plain SHA-256', async () => {
    const user = await enrolledUser();
    const rows = await ctx.database.db
      .select({ hash: recoveryCodes.codeHash })
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, user.userId));
    const plain = createHash('sha256').update(user.recoveryCodes[0]!.replace('-', '')).digest('hex');
    expect(rows.map((r) => r.hash)).not.toContain(plain);
  });
});
