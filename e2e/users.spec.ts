import { randomUUID } from 'node:crypto';
import { request, type Page } from '@playwright/test';
import { BASE_URL } from './env';
import { apiAs, expect, latestLinkTo, login, test, type ApiClient } from './fixtures';

/**
 * Admin Users: invite up to the subscription screen, edit, deactivate and activate
 * (sign-in refused, then allowed), search and paging over 30 users, and an invitation accepted
 * through the emailed link, after which the new admin signs in and sees only their organization.
 */

interface UserDto {
  id: string;
  username: string;
  email: string;
  organizationId: string;
  inviteStatus: 'pending' | 'accepted' | 'expired';
}

const PASSWORD = 'Invited-Passw0rd!';

async function adminRoleId(api: ApiClient): Promise<string> {
  const roles = (await api.get('/auth/roles?pageSize=100')) as { data: { id: string; name: string }[] };
  return roles.data.find((r) => r.name === 'admin')!.id;
}

/** Creates an admin as the subscription screen would (POST /users/as/admin); the user gets an invite email. */
async function inviteAdmin(
  api: ApiClient,
  username: string,
  options: { organizationId?: string; client?: string } = {},
): Promise<UserDto> {
  const body = (await api.post('/auth/users/as/admin', {
    username,
    email: `${username}@acme.test`,
    mobileNo: '9876543210',
    client: options.client ?? `Company ${username}`,
    organizationId: options.organizationId ?? randomUUID(),
    roleId: await adminRoleId(api),
  })) as { data: UserDto };
  return body.data;
}

/** Follows the newest invite link sent to `email` and sets the password on the reset screen. */
async function acceptInvite(page: Page, email: string, password = PASSWORD) {
  const link = await latestLinkTo(email);
  expect(link).toMatch(/\/auth\/reset-password\?token=/);
  await page.goto(link);
  const rules = page.locator('[data-rule]');
  await expect(rules.first()).toHaveAttribute('data-met', 'false');
  await page.getByRole('textbox', { name: 'New password' }).fill(password);
  // The checklist follows what is typed.
  for (const rule of await rules.all()) await expect(rule).toHaveAttribute('data-met', 'true');
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Your password has been set. You can now sign in.')).toBeVisible();
}

async function canSignIn(identifier: string, password = PASSWORD): Promise<number> {
  const context = await request.newContext({ baseURL: BASE_URL });
  const res = await context.post('/api/auth/auth-session/login', { data: { identifier, password } });
  await context.dispose();
  return res.status();
}

async function searchUsers(page: Page, term: string) {
  await page.getByRole('textbox', { name: 'Search admin users...' }).fill(term);
}

function rowOf(page: Page, username: string) {
  return page.getByRole('row').filter({ has: page.getByText(username, { exact: true }) });
}

async function rowAction(page: Page, username: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${username}`, exact: true }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: action }).click();
}

test.describe('admin users', () => {
  test('invite an admin: the form checks the rules in order and continues to the subscription screen', async ({
    page,
  }) => {
    const tag = randomUUID().slice(0, 8);
    await login(page);
    await page.goto('/dashboard/usermanagement');
    await expect(page.getByRole('heading', { name: 'Admin Users' })).toBeVisible();
    await page.getByRole('button', { name: 'Invite Admin' }).click();
    await expect(page).toHaveURL(/\/dashboard\/inviteuser$/);
    await expect(page.getByRole('heading', { name: 'Add New User' })).toBeVisible();

    await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await page.getByRole('button', { name: 'Continue to Subscription' }).click();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Email' }).fill(`invite.${tag}@acme.test`);
    await page.getByRole('textbox', { name: 'Username' }).fill(`invite.${tag}`);
    await page.getByRole('textbox', { name: 'Contact Number' }).fill('98765');
    await page.getByRole('button', { name: 'Continue to Subscription' }).click();
    await expect(page.getByText('Mobile number must be exactly 10 digits.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Contact Number' }).fill('9876543210');
    await page.getByRole('textbox', { name: 'Company Name' }).fill(`Invite Co ${tag}`);
    await page.getByRole('button', { name: 'Continue to Subscription' }).click();

    await expect(page).toHaveURL(/\/dashboard\/subscription\?organizationId=[0-9a-f-]{36}$/);
    const organizationId = new URL(page.url()).searchParams.get('organizationId');
    const pending = await page.evaluate(() =>
      JSON.parse(sessionStorage.getItem('pendingUserData') ?? 'null'),
    );
    expect(pending).toMatchObject({
      username: `invite.${tag}`,
      email: `invite.${tag}@acme.test`,
      mobileNo: '9876543210',
      client: `Invite Co ${tag}`,
      organizationId,
      createAsAdmin: true,
    });
    expect(pending).not.toHaveProperty('password');
  });

  test('edit a user: email locked, company saved, back to the list', async ({ page }) => {
    const api = await apiAs();
    const tag = randomUUID().slice(0, 8);
    const user = await inviteAdmin(api, `edit.${tag}`);
    await login(page);
    await page.goto('/dashboard/usermanagement');
    await searchUsers(page, `edit.${tag}`);
    await expect(rowOf(page, `edit.${tag}`)).toHaveCount(1);
    await rowAction(page, `edit.${tag}`, 'Edit');

    await expect(page).toHaveURL(new RegExp(`/dashboard/inviteuser\\?edit=${user.id}$`));
    await expect(page.getByRole('heading', { name: 'Edit User' })).toBeVisible();
    const email = page.getByRole('textbox', { name: 'Email' });
    await expect(email).toHaveValue(user.email);
    await expect(email).toBeDisabled();
    await expect(page.getByText('Email cannot be changed after creation.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Company Name' }).fill(`Renamed ${tag}`);
    await page.getByRole('button', { name: 'Update User' }).click();
    await expect(page.getByText('User updated successfully!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/usermanagement$/);

    const saved = (await api.get(`/auth/users/${user.id}`)) as { data: { client: string } };
    expect(saved.data.client).toBe(`Renamed ${tag}`);
    await api.dispose();
  });

  test('deactivate: the user cannot sign in; activate: they can again', async ({ page }) => {
    const api = await apiAs();
    const tag = randomUUID().slice(0, 8);
    const username = `toggle.${tag}`;
    const user = await inviteAdmin(api, username);
    await acceptInvite(page, user.email);
    expect(await canSignIn(username)).toBe(200);

    await login(page);
    await page.goto('/dashboard/usermanagement');
    await searchUsers(page, username);
    await expect(rowOf(page, username).getByText('Active', { exact: true })).toBeVisible();

    await rowAction(page, username, 'Deactivate');
    const dialog = page.getByRole('dialog', { name: 'Deactivate User' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText('User deactivated successfully')).toBeVisible();
    await expect(rowOf(page, username).getByText('Inactive', { exact: true })).toBeVisible();
    expect(await canSignIn(username)).toBe(401);

    await rowAction(page, username, 'Activate');
    await page
      .getByRole('dialog', { name: 'Activate User' })
      .getByRole('button', { name: 'Activate' })
      .click();
    await expect(page.getByText('User activated successfully')).toBeVisible();
    await expect(rowOf(page, username).getByText('Active', { exact: true })).toBeVisible();
    expect(await canSignIn(username)).toBe(200);
    await api.dispose();
  });

  test('search on the server and page through 30 users', async ({ page }) => {
    const api = await apiAs();
    const tag = randomUUID().slice(0, 6);
    const organizationId = randomUUID();
    for (let i = 0; i < 30; i++) {
      await inviteAdmin(api, `page${tag}.${String(i).padStart(2, '0')}`, {
        organizationId,
        client: `Paging ${tag}`,
      });
    }
    await login(page);
    await page.goto('/dashboard/usermanagement');
    await searchUsers(page, `page${tag}`);
    await expect(page.getByText('1–10 of 30')).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(11);

    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page.getByText('11–20 of 30')).toBeVisible();
    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page.getByText('21–30 of 30')).toBeVisible();
    await expect(page.getByRole('button', { name: /next page/i })).toBeDisabled();

    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '25' }).click();
    await expect(page.getByText('1–25 of 30')).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(26);

    // The server also searches the company name (client), and a single username.
    await searchUsers(page, `paging ${tag}`);
    await expect(page.getByText('1–25 of 30')).toBeVisible();
    await searchUsers(page, `page${tag}.07`);
    await expect(page.getByText('1–1 of 1')).toBeVisible();
    await searchUsers(page, `no-such-user-${tag}`);
    await expect(page.getByText('No admin users found')).toBeVisible();

    // Export To Excel downloads the filtered list as .xlsx.
    await searchUsers(page, `page${tag}`);
    await expect(page.getByText('1–25 of 30')).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export To Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.xlsx$/);
    await api.dispose();
  });

  test('accept an invitation (after a resend) and sign in as the new admin, who sees only their organization', async ({
    page,
    browser,
  }) => {
    const api = await apiAs();
    const tag = randomUUID().slice(0, 8);
    const username = `accept.${tag}`;
    const user = await inviteAdmin(api, username);
    const firstLink = await latestLinkTo(user.email);

    await login(page);
    await page.goto('/dashboard/usermanagement');
    await searchUsers(page, username);
    await expect(rowOf(page, username).getByText('Invite pending')).toBeVisible();
    await rowAction(page, username, 'View');
    const panel = page.getByRole('dialog', { name: 'Admin User Details' });
    await expect(panel.getByText(user.organizationId)).toBeVisible();
    await page.keyboard.press('Escape');
    // The panel gone before the next menu: a menu opened while it was still closing once ignored
    // the click on its item (no request was sent).
    await expect(panel).toHaveCount(0);
    await rowAction(page, username, 'Resend invite');
    await expect(page.getByText('A new invitation link has been sent.')).toBeVisible();

    // The new link works; the first one no longer does.
    await expect.poll(() => latestLinkTo(user.email)).not.toBe(firstLink);
    const invitee = await (await browser.newContext({ baseURL: BASE_URL })).newPage();
    // The reset page checks its link as it opens: a dead one says so before any password is typed.
    await invitee.goto(firstLink);
    await expect(
      invitee.getByText('This link is invalid or has expired. Please ask for a new one.'),
    ).toBeVisible();
    await expect(invitee.getByRole('textbox', { name: 'New password' })).toHaveCount(0);
    await acceptInvite(invitee, user.email);

    await login(invitee, username, PASSWORD);
    await invitee.goto('/dashboard/usermanagement');
    await expect(invitee.getByRole('heading', { name: 'Admin Users' })).toBeVisible();
    await expect(invitee.getByText('1–1 of 1')).toBeVisible();
    await expect(rowOf(invitee, username)).toHaveCount(1);

    await page.reload();
    await searchUsers(page, username);
    await expect(rowOf(page, username).getByText('Active', { exact: true })).toBeVisible();
    await expect(rowOf(page, username).getByText('Invite pending')).toHaveCount(0);
    await api.dispose();
  });

  test('the details panel keeps its actions in view on a laptop and a phone; Register starts without a company', async ({
    page,
  }) => {
    const api = await apiAs();
    const username = `panel.${randomUUID().slice(0, 8)}`;
    await inviteAdmin(api, username);
    await api.dispose();
    await page.setViewportSize({ width: 1366, height: 768 });
    await login(page);
    for (const viewport of [
      { width: 1366, height: 768 },
      { width: 375, height: 667 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/dashboard/usermanagement');
      await searchUsers(page, username);
      await rowAction(page, username, 'View');
      const panel = page.getByRole('dialog', { name: 'Admin User Details' });
      for (const name of ['Edit Admin', 'End all sessions']) {
        await expect(panel.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
      }
      await page.keyboard.press('Escape');
      await expect(panel).toHaveCount(0);
    }

    // Register User: no company (not the platform's) until an organization is chosen, then its name.
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto('/dashboard/register');
    const company = page.getByRole('textbox', { name: 'Company Name' });
    await expect(company).toHaveValue('');
    await page.getByRole('combobox', { name: 'Organization' }).fill(`Company ${username}`);
    await page.getByRole('option', { name: `Company ${username}` }).click();
    await expect(company).toHaveValue(`Company ${username}`);
  });
});
