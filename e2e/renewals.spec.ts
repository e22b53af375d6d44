import { randomUUID } from 'node:crypto';
import { apiAs, expect, latestMailTo, login, test } from './fixtures';
import { setPasswordThroughLink } from './scenario';

/**
 * A month of renewals in a browser (issue 32). The portal runs with TEST_CLOCK=on, and this file runs
 * after every other one (its own Playwright project), since moving the billing clock would move the
 * dates the other tests read.
 */

const ADMIN_PASSWORD = 'Renew-Passw0rd!';
const GOOD_CARD = '4111 1111 1111 1111';
const FAILING_CARD = '4000000000000341';

/** The super administrator moves the billing clock forward; the renewal run and its debits follow. */
async function moveClock(hours: number) {
  const api = await apiAs();
  try {
    await api.post('/auth/test-clock', { hours });
  } finally {
    await api.dispose();
  }
}

test('onboarding with automatic renewal, a card mandate, a month on: notice, debit, invoice, credits; a declined debit retried and paid', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const tag = randomUUID().slice(0, 8);
  const username = `renew.${tag}`;
  const email = `renew.${tag}@acme.test`;

  // The operator onboards the organization: automatic renewal is on unless unticked.
  await login(page);
  await page.goto('/dashboard/inviteuser');
  await page.getByRole('textbox', { name: /^Username/ }).fill(username);
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByRole('textbox', { name: /^Contact Number/ }).fill('9876543210');
  await page.getByRole('textbox', { name: /^Company Name/ }).fill(`Renew ${tag}`);
  await page.getByRole('button', { name: 'Continue to Subscription' }).click();
  await expect(page).toHaveURL(/\/dashboard\/subscription\?organizationId=/);
  await page.getByRole('spinbutton', { name: /^Credits/ }).fill('10');
  await page.getByRole('spinbutton', { name: /^Price per credit/ }).fill('100');
  await expect(page.getByRole('checkbox', { name: 'Renew automatically each month' })).toBeChecked();
  await page.getByRole('button', { name: 'Create User & Subscription' }).click();
  await expect(page).toHaveURL(/\/dashboard\/usermanagement$/, { timeout: 10_000 });

  // The new admin sets a password from the invitation, signs in and authorizes a card mandate.
  const admin = await browser.newPage();
  await setPasswordThroughLink(admin, email, ADMIN_PASSWORD);
  await login(admin, email, ADMIN_PASSWORD);
  await admin.goto('/dashboard/billing');
  const plan = admin.getByRole('heading', { name: 'Plan and renewals' }).locator('xpath=..');
  const latest = plan.getByRole('table', { name: 'Latest renewals' }).getByRole('row');
  await expect(plan).toContainText('Manual payment');
  await plan.getByRole('button', { name: 'Set up card mandate' }).click();
  const mandate = admin.getByRole('dialog', { name: 'Set up a card mandate' });
  await mandate.getByRole('textbox', { name: /Card number/ }).fill(GOOD_CARD);
  await mandate.getByRole('button', { name: 'Authorize mandate' }).click();
  await expect(
    admin.getByText('Card mandate authorized. Renewals are debited from this card.'),
  ).toBeVisible();
  await expect(plan).toContainText('Card mandate, authorized');
  await expect(plan.getByRole('switch', { name: 'Automatic renewal' })).toBeChecked();
  const balance = async () => Number(await admin.getByTestId('credit-balance').innerText());
  const replaceCard = async (card: string) => {
    await plan.getByRole('button', { name: 'Replace card' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Set up a card mandate' });
    await dialog.getByRole('textbox', { name: /Card number/ }).fill(card);
    await dialog.getByRole('button', { name: 'Authorize mandate' }).click();
    await expect(dialog).toBeHidden();
  };
  const before = await balance();

  // 29 days on: the pre-debit notice is out (mail and the portal), the debit announced.
  await moveClock(29 * 24);
  const notice = await latestMailTo(email, (m) => m.subject === 'Upcoming debit for your subscription');
  expect(notice.text).toContain('Merchant: Interview Credits Portal');
  expect(notice.text).toContain('₹1,180');
  await admin.reload();
  await expect(latest.nth(1)).toContainText('Debit announced');

  // A month on: debited, invoiced, the credits added.
  await moveClock(2 * 24);
  await admin.reload();
  await expect(latest.nth(1)).toContainText('Charged');
  await expect.poll(balance).toBe(before + 10);
  await admin.goto('/dashboard/invoices');
  await expect(admin.getByRole('row').filter({ hasText: '₹1,180.00' }).first()).toBeVisible();

  // The next month's debits are declined: the admin replaces the card with one the bank refuses.
  await admin.goto('/dashboard/billing');
  await replaceCard(FAILING_CARD);
  await moveClock(29 * 24);
  await moveClock(2 * 24);
  await admin.goto('/dashboard/billing');
  await expect(latest.nth(1)).toContainText('Declined');
  await expect(latest.nth(1)).toContainText('declined the debit');

  // The admin updates the card; the retry a day later is debited, with its credits.
  const afterFirst = await balance();
  await replaceCard(GOOD_CARD);
  await moveClock(24);
  await admin.reload();
  await expect(latest.nth(1)).toContainText('Charged');
  await expect.poll(balance).toBe(afterFirst + 10);
});
