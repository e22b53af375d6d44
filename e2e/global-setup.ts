import { request } from '@playwright/test';
import { BASE_URL, SUPER_ADMIN, SUPER_ADMIN_POOL_PREFIX, SUPER_ADMIN_POOL_SIZE } from './env';
import { apiClientOf, latestLinkTo, SELLER_TAX_PROFILE, type ApiClient } from './fixtures';
import { firstCode, saveSecondFactorAccount } from './second-factor';

const POOL_PASSWORD = 'Pool-Passw0rd!';

/**
 * Once per run, after Playwright has started the portal (its webServer comes up before global
 * setup): the super administrator sets up two-factor sign-in (every super administrator must) and
 * the seller's tax details, without which no payment can be recorded; then it adds the pool of
 * super administrators the tests sign in as (env.ts), each with its own second factor.
 */
export default async function globalSetup() {
  const root = await enrolledClient(SUPER_ADMIN.email, SUPER_ADMIN.password);
  try {
    await root.put('/auth/tax-profile', SELLER_TAX_PROFILE);
    const me = (await root.get('/auth/auth-session/me')) as { data: { organizationId: string } };
    const roles = (await root.get('/auth/roles?search=super_admin&pageSize=100')) as {
      data: { id: string; name: string }[];
    };
    const roleId = roles.data.find((r) => r.name === 'super_admin')!.id;
    await Promise.all(
      Array.from({ length: SUPER_ADMIN_POOL_SIZE }, async (_, i) => {
        const email = `${SUPER_ADMIN_POOL_PREFIX}${i + 1}@portal.test`;
        await root.post('/auth/auth-session/register', {
          email,
          username: `rootpool${i + 1}`,
          mobileNo: `98765432${String(i + 10).padStart(2, '0')}`,
          client: 'Interview Credits Portal',
          organizationId: me.data.organizationId,
          roleId,
        });
        await setPasswordFromInvite(email, POOL_PASSWORD);
        await (await enrolledClient(email, POOL_PASSWORD)).dispose();
      }),
    );
  } finally {
    await root.dispose();
  }
}

async function setPasswordFromInvite(email: string, password: string) {
  const token = new URL(await latestLinkTo(email)).searchParams.get('token');
  const context = await request.newContext({ baseURL: BASE_URL });
  try {
    const res = await context.post('/api/auth/reset-password', { data: { token, password } });
    if (!res.ok()) throw new Error(`setting ${email}'s password failed: ${res.status()} ${await res.text()}`);
  } finally {
    await context.dispose();
  }
}

/**
 * Signs a super administrator without a second factor in, and sets one up through the API as the
 * enrolment page does: the secret, then its first code. The session then reaches every page.
 */
async function enrolledClient(email: string, password: string): Promise<ApiClient> {
  const context = await request.newContext({ baseURL: BASE_URL });
  const res = await context.post('/api/auth/auth-session/login', { data: { identifier: email, password } });
  if (!res.ok()) throw new Error(`sign-in failed for ${email}: ${res.status()} ${await res.text()}`);
  const client = apiClientOf(context, res.headers()['x-user-id']!);
  const setup = (await client.post('/auth/two-factor/setup')) as { data: { secret: string } };
  const { secret } = setup.data;
  await client.post('/auth/two-factor/enable', { code: await firstCode(email, secret) });
  saveSecondFactorAccount({ email, password, secret });
  return client;
}
