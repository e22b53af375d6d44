import { messages } from '@portal/shared';
import { apiAs, expect, latestLinkTo, test } from './fixtures';

/**
 * Issue 20: a reset or invitation link's token leaves the address bar and the history as soon as the
 * page has read it, so no screenshot, history list or later Referer carries it; the form still
 * sends it. The page checks the link as it opens: a dead one says so before anything is typed, and a
 * good one survives a reload of the page.
 */
test('a dead link says so as the page opens, and its token leaves the address bar', async ({ page }) => {
  const token = 'not-a-real-token-0123456789';
  await page.goto('/auth/login');
  const entries = await page.evaluate(() => window.history.length);
  const checked = page.waitForRequest((r) => r.url().endsWith('/api/auth/reset-password/check'));
  await page.goto(`/auth/reset-password?token=${token}`);
  expect((await checked).postDataJSON()).toEqual({ token });
  await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await expect(page.getByText(messages.login.resetInvalid)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  // Nothing to type into a dead link.
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
  // The link's entry was replaced, not followed by a second one.
  expect(await page.evaluate(() => window.history.length)).toBe(entries + 1);

  await page.goBack();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.goForward();
  await expect(page).toHaveURL(/\/auth\/reset-password$/);

  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page).toHaveURL(/\/auth\/forgot-password$/);
});

test('a good link still works after a reload of the page, once its token has left the address bar', async ({
  page,
}) => {
  const root = await apiAs();
  const email = `reload-${Date.now()}@portal.test`;
  try {
    const me = (await root.get('/auth/auth-session/me')) as { data: { organizationId: string } };
    const roles = (await root.get('/auth/roles?search=admin&pageSize=100')) as {
      data: { id: string; name: string }[];
    };
    await root.post('/auth/auth-session/register', {
      email,
      username: `reload${Date.now()}`,
      mobileNo: '9876501234',
      client: 'Interview Credits Portal',
      organizationId: me.data.organizationId,
      roleId: roles.data.find((r) => r.name === 'admin')!.id,
    });
  } finally {
    await root.dispose();
  }
  const link = await latestLinkTo(email);
  await page.goto(link);
  await expect(page.getByLabel('New password', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/reset-password$/);

  // The checklist lists the rules plainly until something is typed.
  await expect(page.locator('[data-rule][data-state="neutral"]')).toHaveCount(5);

  await page.reload();
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/auth/reset-password'));
  await page.getByLabel('New password', { exact: true }).fill('Reset-Passw0rd!');
  await page.getByLabel('Confirm password', { exact: true }).fill('Reset-Passw0rd!');
  await page.getByRole('button', { name: 'Set password' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ token: new URL(link).searchParams.get('token') });
  await expect(page.getByText(messages.login.resetDone)).toBeVisible();

  // Used: a reload now says the link is dead.
  await page.reload();
  await expect(page.getByText(messages.login.resetInvalid)).toBeVisible();
});
