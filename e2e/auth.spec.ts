import { expect, login, SUPER_ADMIN, test } from './fixtures';

test.describe('sign-in and the route guard', () => {
  test('a signed-out visitor is sent to the sign-in screen from any protected or unknown path', async ({
    page,
  }) => {
    for (const path of ['/dashboard', '/logindashboard/profile', '/', '/no/such/page']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth\/login$/);
    }
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  });

  test('the page and its scripts arrive compressed, and hashed scripts are cached for a year', async ({
    page,
  }) => {
    const scripts: { encoding?: string; cache?: string }[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js'))
        scripts.push({
          encoding: response.headers()['content-encoding'],
          cache: response.headers()['cache-control'],
        });
    });
    const document = await page.goto('/auth/login');
    expect(document!.headers()['content-encoding']).toBe('br');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(scripts.length).toBeGreaterThan(1);
    for (const script of scripts)
      expect(script).toEqual({ encoding: 'br', cache: 'public, max-age=31536000, immutable' });
  });

  test('wrong credentials show the server message and stay on sign-in', async ({ page }) => {
    await page.goto('/auth/login');
    await page.getByLabel('Email or username').fill(SUPER_ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-Passw0rd!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/auth\/login$/);
  });

  test('sign in, public routes redirect to the dashboard, sign out ends the session', async ({
    page,
    context,
  }) => {
    await login(page);
    await expect(page.getByRole('navigation', { name: 'Main' }).first()).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('Role'))).toBe('super_admin');
    expect(await page.evaluate(() => sessionStorage.getItem('justLoggedIn'))).toBe('true');

    await page.goto('/auth/login');
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.getByRole('button', { name: 'Open user menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    const names = (await context.cookies()).map((c) => c.name);
    expect(names).not.toContain('access_token');
    expect(names).not.toContain('XSRF-TOKEN');
    expect(await page.evaluate(() => localStorage.getItem('ID'))).toBeNull();

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth\/login$/);
  });

  test('an expired access cookie is refreshed without a visible sign-out', async ({ page, context }) => {
    // The dashboard's first requests must be answered: one still in flight when the cookie goes
    // would start a refresh that the reload cuts off. ('networkidle' had often fired already, on the
    // sign-in page.)
    const dashboardAnswered = Promise.all(
      ['/api/auth/dashboard', '/api/auth/notifications/unread-count', '/api/config'].map((path) =>
        page.waitForResponse((r) => r.url().endsWith(path) && r.ok()),
      ),
    );
    await login(page);
    await dashboardAnswered;
    const refreshed = page.waitForResponse(
      (r) => r.url().includes('/api/auth/auth-session/refresh-token') && r.status() === 200,
    );
    // Drop the access cookie as if it had expired; the refresh cookie remains.
    const cookies = await context.cookies();
    await context.clearCookies();
    await context.addCookies(cookies.filter((c) => c.name !== 'access_token'));
    await page.reload();
    await refreshed;
    await expect(page).toHaveURL(/\/dashboard$/);
    expect((await context.cookies()).map((c) => c.name)).toContain('access_token');
  });

  test('a reload while the API does not answer keeps the session and offers a retry', async ({
    page,
    context,
  }) => {
    await login(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    const userId = await page.evaluate(() => localStorage.getItem('ID'));
    // The user's own record does not arrive, as on a dropped connection.
    await page.route('**/api/auth/auth-session/me', (route) => route.abort('connectionreset'));
    await page.reload();
    await expect(page.getByRole('alert')).toHaveText(/Network error\. Please check your connection\./);
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await page.evaluate(() => localStorage.getItem('ID'))).toBe(userId);
    expect((await context.cookies()).map((c) => c.name)).toContain('refresh_token');

    await page.unroute('**/api/auth/auth-session/me');
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('button', { name: 'Product Dashboard' }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('the /logindashboard prefix serves the same pages and the sidebar toggles between prefixes', async ({
    page,
  }) => {
    await login(page);
    await page.getByRole('button', { name: 'Product Dashboard' }).first().click();
    await expect(page).toHaveURL(/\/logindashboard$/);
    await page.getByRole('button', { name: 'Product Dashboard' }).first().click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
