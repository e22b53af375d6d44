import { randomUUID } from 'node:crypto';
import { apiAs, expect, latestLinkTo, login, tenCreditsSubscription, test } from './fixtures';
import { setPasswordThroughLink } from './scenario';

/**
 * Billing flows: the super administrator's invite → subscription → manual payment (one server
 * transaction), and a tenant admin buying credits through the sandbox checkout.
 */

interface Page<T> {
  data: T[];
  meta: { total: number };
}

test.describe('billing', () => {
  test('invite → subscription → manual payment: the new admin is listed with an active, paid subscription', async ({
    page,
  }) => {
    const tag = randomUUID().slice(0, 8);
    const username = `billing.${tag}`;
    const email = `billing.${tag}@acme.test`;
    await login(page);

    await page.goto('/dashboard/inviteuser');
    await page.getByRole('textbox', { name: /^Username/ }).fill(username);
    await page.getByRole('textbox', { name: /^Email/ }).fill(email);
    await page.getByRole('textbox', { name: /^Contact Number/ }).fill('9876543210');
    await page.getByRole('textbox', { name: /^Company Name/ }).fill(`Acme ${tag}`);
    await page.getByRole('button', { name: 'Continue to Subscription' }).click();

    await expect(page).toHaveURL(/\/dashboard\/subscription\?organizationId=[0-9a-f-]{36}$/);
    const organizationId = new URL(page.url()).searchParams.get('organizationId')!;
    await expect(
      page.getByRole('heading', { name: `Setting up subscription for ${username} (${email})` }),
    ).toBeVisible();
    await page.getByRole('spinbutton', { name: /^Credits/ }).fill('20');
    await page.getByRole('spinbutton', { name: /^Price per credit/ }).fill('250');
    // The computed amounts read as values, not as boxes to type in.
    await expect(page.getByRole('status', { name: 'Total' })).toHaveText('₹5,900.00');
    await expect(page.getByRole('textbox', { name: 'Total' })).toHaveCount(0);
    await page.getByRole('combobox', { name: 'Demo credits' }).click();
    await page.getByRole('option', { name: '3 trials' }).click();
    await page.getByRole('button', { name: 'Manual Payment' }).click();

    await expect(page).toHaveURL(/\/dashboard\/manualPayment$/);
    await expect(page.getByRole('table', { name: 'Payment calculation' })).toContainText('₹5,900.00');
    await expect(page.getByRole('table', { name: 'User information' })).toContainText(email);
    await page.getByRole('button', { name: 'Submit Payment & Create Account' }).click();
    await expect(page.getByText('Please enter a transaction ID')).toBeVisible();
    await page.getByRole('textbox', { name: /^Transaction ID/ }).fill(`  UTR-${tag} `);
    await page.getByRole('combobox', { name: 'Payment method' }).click();
    await page.getByRole('option', { name: 'UPI' }).click();
    await page.getByRole('button', { name: 'Submit Payment & Create Account' }).click();
    await expect(page.getByText('User, subscription and payment record created successfully!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/usermanagement$/, { timeout: 5_000 });

    await page.getByRole('textbox', { name: 'Search admin users...' }).fill(username);
    await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(1);

    // The server holds one organization with one paid subscription and its payment, linked.
    const api = await apiAs();
    try {
      const users = (await api.get(`/auth/users?search=${encodeURIComponent(username)}`)) as Page<{
        id: string;
        isSubscription: boolean;
        organizationId: string;
      }>;
      expect(users.data).toHaveLength(1);
      expect(users.data[0]).toMatchObject({ isSubscription: true, organizationId });
      const subs = (await api.get(`/auth/subscriptions?organizationId=${organizationId}`)) as Page<{
        id: string;
        status: string;
        subscription: boolean;
        paymentId: string | null;
        grandTotalAmountPaise: number;
        demoTrials: number;
      }>;
      expect(subs.meta.total).toBe(1);
      expect(subs.data[0]).toMatchObject({
        status: 'ACTIVE',
        subscription: true,
        grandTotalAmountPaise: 590_000,
        demoTrials: 3,
      });
      const payments = (await api.get(`/auth/payments?organizationId=${organizationId}`)) as Page<{
        id: string;
        subscriptionId: string;
        paymentMethod: string;
        manualReferenceNumber: string;
        paymentStatus: string;
      }>;
      expect(payments.meta.total).toBe(1);
      expect(payments.data[0]).toMatchObject({
        id: subs.data[0]!.paymentId,
        subscriptionId: subs.data[0]!.id,
        paymentMethod: 'UPI',
        manualReferenceNumber: `UTR-${tag}`,
        paymentStatus: 'CREATED',
      });
      const credits = (await api.get(`/auth/credits?organizationId=${organizationId}`)) as {
        data: { balance: number };
      };
      expect(credits.data.balance).toBe(23);
    } finally {
      await api.dispose();
    }
    expect(await latestLinkTo(email)).toContain('/auth/reset-password?token=');
  });

  test('a tenant admin buys credits through the sandbox checkout and the balance rises', async ({ page }) => {
    const tag = randomUUID().slice(0, 8);
    const email = `buyer.${tag}@acme.test`;
    const password = 'Buyer-Passw0rd!';
    const api = await apiAs();
    try {
      await api.post(
        '/auth/onboarding',
        {
          user: {
            username: `buyer.${tag}`,
            email,
            mobileNo: '9876543210',
            client: `Buyer ${tag}`,
            organizationId: randomUUID(),
          },
          subscription: tenCreditsSubscription(0),
        },
        { 'Idempotency-Key': `e2e-${tag}` },
      );
    } finally {
      await api.dispose();
    }
    await setPasswordThroughLink(page, email, password);

    await login(page, email, password);
    await page.getByRole('link', { name: 'Billing' }).click();
    await expect(page).toHaveURL(/\/dashboard\/billing$/);
    await expect(page.getByTestId('credit-balance')).toHaveText('10');

    await page.getByRole('spinbutton', { name: 'Credits to buy' }).fill('5');
    await expect(page.getByText('₹590.00')).toBeVisible();
    await page.getByRole('button', { name: 'Buy credits' }).click();
    await expect(page.getByText('Payment order created.')).toBeVisible();
    const checkout = page.getByRole('dialog', { name: 'Test checkout' });
    await checkout.getByRole('button', { name: /^Pay/ }).click();
    await expect(page.getByText('Payment verified successfully.')).toBeVisible();
    await expect(page.getByTestId('credit-balance')).toHaveText('15');
    const history = page.getByRole('table', { name: 'Credit history' });
    await expect(history).toContainText('Bought 5 credits online');
    // Each entry says what it is (with the payment's number), never the portal's internal reference.
    await expect(history.getByRole('row').filter({ hasText: 'Bought 5 credits online' })).toContainText(
      /Payment\s*pay_/,
    );
    await expect(history.getByRole('row').filter({ hasText: 'Subscription credits' })).toContainText(
      'Onboarding',
    );
    await expect(history).not.toContainText('subscription:');
    // The month bought follows the one running now: current stays 10 credits, the 5 are upcoming.
    await expect(page.getByText(/Active · Monthly · 10 credits/)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Upcoming (paid ahead)' }).getByRole('listitem')).toHaveText([
      /· 5 credits · ₹590\.00$/,
    ]);
  });
});

test.describe('billing in a browser outside India', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('manual payment: the date defaults to today in India, day first', async ({ page }) => {
    const tag = randomUUID().slice(0, 8);
    await login(page);
    // 19:15 UTC on 26 Nov is 00:45 IST on 27 Nov, and still 26 Nov (11/26/2026) in New York.
    await page.clock.setFixedTime(new Date('2026-11-26T19:15:00Z'));
    await page.goto('/dashboard/inviteuser');
    await page.getByRole('textbox', { name: /^Username/ }).fill(`tz.${tag}`);
    await page.getByRole('textbox', { name: /^Email/ }).fill(`tz.${tag}@acme.test`);
    await page.getByRole('textbox', { name: /^Contact Number/ }).fill('9876543210');
    await page.getByRole('textbox', { name: /^Company Name/ }).fill(`Zone ${tag}`);
    await page.getByRole('button', { name: 'Continue to Subscription' }).click();
    await expect(page).toHaveURL(/\/dashboard\/subscription\?organizationId=/);
    expect(await page.evaluate(() => new Date().getDate())).toBe(26);
    await page.getByRole('button', { name: 'Manual Payment' }).click();
    await expect(page).toHaveURL(/\/dashboard\/manualPayment$/);
    await expect(page.getByRole('textbox', { name: 'Payment date' })).toHaveValue('27 Nov 2026');
  });
});
