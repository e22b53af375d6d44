import { randomUUID } from 'node:crypto';
import { apiAs, expect, latestLinkTo, login, test } from './fixtures';

/** Workspace flows: profile and company details, change password, support tickets. */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** A Windows executable start, dressed up as a PDF by its name. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(126, 0x90)]);

test.describe('workspace', () => {
  test('edit the profile, its image and the company details; they are there after a reload', async ({
    page,
  }) => {
    await login(page);
    await page.goto('/dashboard/profile');
    await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();

    const info = page.getByRole('region', { name: 'User Information' });
    await expect(info.getByLabel(/^Email/)).toHaveAttribute('readonly', '');
    await info.getByLabel(/^Full Name/).fill('');
    await expect(info.getByRole('button', { name: 'Save' })).toBeDisabled();
    await info.getByLabel(/^Full Name/).fill('Portal Owner');
    await info.getByLabel(/^Contact Number/).fill('9876543210');
    await info.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Profile updated successfully')).toBeVisible();
    await expect(info.getByText('Profile information saved successfully!')).toBeVisible();

    await info
      .getByLabel('Upload Image')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByText('Profile image updated successfully')).toBeVisible();
    await expect(info.getByRole('img')).toHaveAttribute('src', /^\/api\/files\//);

    const company = page.getByRole('region', { name: 'Company Details' });
    const fields: [RegExp, string][] = [
      [/^Company Name/, 'Platform Pvt Ltd'],
      [/^Company Email/, 'ops@platform.example'],
      [/^Address/, '1 Residency Road'],
      [/^Country/, 'India'],
      [/^State/, 'Karnataka'],
      [/^City/, 'Bengaluru'],
      [/^Pincode/, '056002'],
      [/^Industry Type/, 'Software'],
      [/^Founded In/, '2015'],
      [/^Website URL/, 'https://platform.example'],
      [/^LinkedIn URL/, 'https://www.linkedin.com/company/platform'],
    ];
    for (const [label, value] of fields) await company.getByLabel(label).fill(value);
    await company.getByRole('button', { name: 'Save' }).click();
    await expect(company.getByText('Pincode must be 6 digits and cannot start with 0')).toBeVisible();
    await company.getByLabel(/^Pincode/).fill('560025');
    await company.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Company details saved successfully')).toBeVisible();

    await page.reload();
    await expect(page.getByRole('region', { name: 'User Information' }).getByLabel(/^Full Name/)).toHaveValue(
      'Portal Owner',
    );
    const reloaded = page.getByRole('region', { name: 'Company Details' });
    await expect(reloaded.getByLabel(/^Company Name/)).toHaveValue('Platform Pvt Ltd');
    await expect(reloaded.getByLabel(/^Pincode/)).toHaveValue('560025');
    await expect(reloaded.getByLabel(/^LinkedIn URL/)).toHaveValue(
      'https://www.linkedin.com/company/platform',
    );
  });

  test('change the password, then sign in with the new one', async ({ page }) => {
    // A tenant admin of their own, so the shared super administrator keeps its password.
    const root = await apiAs();
    const roles = (await root.get('/auth/roles?pageSize=100')) as { data: { id: string; name: string }[] };
    const adminRole = roles.data.find((r) => r.name === 'admin')!;
    const suffix = randomUUID().slice(0, 8);
    const email = `pw-${suffix}@example.com`;
    await root.post('/auth/users/as/admin', {
      email,
      username: `pw-${suffix}`,
      mobileNo: '9876543210',
      client: `Password Co ${suffix}`,
      organizationId: randomUUID(),
      roleId: adminRole.id,
    });
    await root.dispose();
    const token = new URL(await latestLinkTo(email)).searchParams.get('token')!;
    const first = 'First-Passw0rd!';
    const res = await page.request.post('/api/auth/reset-password', { data: { token, password: first } });
    expect(res.ok()).toBe(true);

    await login(page, email, first);
    await page.goto('/dashboard/settings');
    await page.getByLabel('Current Password', { exact: true }).fill('Wrong-Passw0rd!');
    await page.getByLabel('New Password', { exact: true }).fill('Second-Passw0rd!');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('Second-Passw0rd!');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Current password is incorrect')).toBeVisible();

    await page.getByLabel('Current Password', { exact: true }).fill(first);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Password changed successfully')).toBeVisible();
    await expect(page.getByLabel('New Password', { exact: true })).toHaveValue('');

    await page.getByRole('button', { name: 'Open user menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await page.getByLabel('Email or username').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(first);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await login(page, email, 'Second-Passw0rd!');
  });

  test('raise a ticket with an attachment and find it in the list; a disguised file is refused', async ({
    page,
  }) => {
    await login(page);
    await page.goto('/dashboard/support');
    const form = page.getByRole('region', { name: 'Raise Ticket' });
    await form.getByRole('button', { name: 'Submit Feedback' }).click();
    await expect(page.getByText('Please enter a message').first()).toBeVisible();

    const text = `E2E ticket ${randomUUID().slice(0, 8)}`;
    await form.getByLabel(/^Message/).fill(`${text} with a fake PDF`);
    await form
      .getByLabel('Attachment')
      .setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: EXE });
    await form.getByRole('button', { name: 'Submit Feedback' }).click();
    await expect(
      page.getByText('Only PDF, Word documents and PNG or JPEG images can be attached.'),
    ).toBeVisible();

    await form.getByLabel(/^Message/).fill(text);
    await form.getByRole('button', { name: `Remove invoice.pdf` }).click();
    await form
      .getByLabel('Attachment')
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: PDF });
    await form.getByRole('button', { name: 'Submit Feedback' }).click();
    await expect(page.getByText('Ticket raised successfully')).toBeVisible();
    await expect(form.getByLabel(/^Message/)).toHaveValue('');

    const list = page.getByRole('region', { name: 'Raised Tickets' });
    await list.getByLabel('Search tickets...').fill(text);
    const rows = list.getByRole('row').filter({ hasText: 'report.pdf' });
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('PDF');
    await expect(rows.first()).toContainText('Active');

    await rows
      .first()
      .getByRole('button', { name: /^Actions for TICKET-/ })
      .click();
    await page.getByRole('menuitem', { name: 'View' }).click();
    await expect(form.getByLabel(/^Message/)).toHaveValue(text);
    const link = form.getByRole('link', { name: 'report.pdf' });
    await expect(link).toHaveAttribute('href', /^\/api\/files\//);
    const file = await page.request.get((await link.getAttribute('href'))!);
    expect(file.headers()['content-type']).toBe('application/pdf');

    await rows
      .first()
      .getByRole('button', { name: /^Actions for TICKET-/ })
      .click();
    await page.getByRole('menuitem', { name: 'Deactivate' }).click();
    await expect(rows.first()).toContainText('Inactive');

    await rows
      .first()
      .getByRole('button', { name: /^Actions for TICKET-/ })
      .click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect(page.getByText('Are you sure you want to delete this ticket?')).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(list.getByText('No Record Found')).toBeVisible();
  });
});
