import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from './harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('harness', () => {
  it('signs in the seeded super administrator and reads their own record', async () => {
    const session = await signIn(ctx.app);
    const res = await session.get(`/api/auth/users/${session.userId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.role.name).toBe('super_admin');
  });
});
