import { expect, test } from './fixtures';

/**
 * Issue 20: a reset or invitation link's token leaves the address bar and the history as soon as the
 * page has read it, so no screenshot, history list or later Referer carries it; the form still
 * sends it.
 */
test('a reset link’s token leaves the address bar, and the form still sends it', async ({ page }) => {
  const token = 'not-a-real-token-0123456789';
  await page.goto('/auth/login');
  const entries = await page.evaluate(() => window.history.length);
  await page.goto(`/auth/reset-password?token=${token}`);
  await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
  // The link's entry was replaced, not followed by a second one.
  expect(await page.evaluate(() => window.history.length)).toBe(entries + 1);

  const sent = page.waitForRequest((r) => r.url().endsWith('/api/auth/reset-password'));
  await page.getByLabel('New password', { exact: true }).fill('Reset-Passw0rd!');
  await page.getByLabel('Confirm password', { exact: true }).fill('Reset-Passw0rd!');
  await page.getByRole('button', { name: 'Set password' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ token });
  // A made-up token is refused by the server, which the page says.
  await expect(page.getByRole('alert')).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.goForward();
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
});
