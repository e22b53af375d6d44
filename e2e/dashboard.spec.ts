import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import {
  computeAmounts,
  formatCount,
  formatDate,
  formatRupees,
  messages,
  type Dashboard,
  type StatCard,
} from '@portal/shared';
import { apiAs, expect, latestLinkTo, login, test, type ApiClient } from './fixtures';

/** Home dashboard, activity feed, notifications bell and positions. */

/** What a stat card shows: its label, then the value formatted as the home page formats it. */
function cardText(card: StatCard): string {
  if (card.value === null) return `${card.label}${card.format === 'date' ? 'No subscription' : '—'}`;
  if (card.format === 'paise') return `${card.label}${formatRupees(Number(card.value))}`;
  if (card.format === 'date') return `${card.label}${formatDate(card.value)}`;
  return `${card.label}${formatCount(Number(card.value))}`;
}

function statCards(page: Page) {
  return page.getByRole('list', { name: 'Statistics' }).getByRole('listitem');
}

/** A new organization with its admin, a 40-credit subscription (+2 demo) and a manual payment, set up by super_admin. */
async function onboardTenant(root: ApiClient) {
  const tag = randomUUID().slice(0, 8);
  const email = `home-${tag}@example.com`;
  const amounts = computeAmounts({ credits: 40, pricePerCreditPaise: 10_000, taxRateBp: 1_800 });
  const result = (await root.post(
    '/auth/onboarding',
    {
      user: {
        username: `home-${tag}`,
        email,
        mobileNo: '9876543210',
        client: `Home Co ${tag}`,
        organizationId: randomUUID(),
      },
      subscription: {
        totalInterviewCredits: 40,
        interviewCreditsPricePaise: 10_000,
        taxRateBp: 1_800,
        subTotalPaise: amounts.subTotalPaise,
        totalAmountPaise: amounts.totalAmountPaise,
        taxAmountPaise: amounts.taxAmountPaise,
        grandTotalAmountPaise: amounts.grandTotalPaise,
        demoTrials: 2,
      },
      payment: {
        transactionId: `UTR-${tag}`,
        paymentMethod: 'bank_transfer',
        paymentDate: new Date().toISOString(),
      },
    },
    { 'Idempotency-Key': randomUUID() },
  )) as { data: { subscription: { validUntil: string }; payment: { amountPaise: number } } };
  const token = new URL(await latestLinkTo(email)).searchParams.get('token')!;
  const password = 'Home-Passw0rd!';
  const anonymous = await root.context.post('/api/auth/reset-password', { data: { token, password } });
  expect(anonymous.ok()).toBe(true);
  return {
    tag,
    email,
    password,
    username: `home-${tag}`,
    validUntil: result.data.subscription.validUntil,
    paidPaise: result.data.payment.amountPaise,
  };
}

test.describe('home, activity, notifications and positions', () => {
  test("a tenant admin's home shows their organization's credits, validity, tickets and activity", async ({
    page,
  }) => {
    const root = await apiAs();
    const tenant = await onboardTenant(root);
    await root.dispose();
    const api = await apiAs(tenant.email, tenant.password);
    for (const message of ['The export button does nothing', 'Please call me about renewal']) {
      await api.post('/auth/support/tickets', { message, type: 'feedback' });
    }
    const credits = (await api.get('/auth/credits')) as { data: { balance: number } };
    expect(credits.data.balance).toBe(42);
    await api.dispose();

    await login(page, tenant.email, tenant.password);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: `Welcome back, ${tenant.username}` })).toBeVisible();
    await expect(statCards(page)).toHaveText([
      'Credits left42',
      `Valid until${formatDate(tenant.validUntil)}`,
      'Open tickets2',
    ]);
    // No credits used yet: the chart says so instead of drawing an empty box.
    await expect(page.getByRole('heading', { name: 'Credits used by month' })).toBeVisible();
    await expect(page.getByText(messages.dashboard.noChartData)).toBeVisible();
    const recent = page.getByRole('list', { name: 'Recent Activity' }).getByRole('listitem');
    await expect(recent.first()).toContainText('Created');
    await expect(recent.first()).toContainText('Raised support ticket TICKET-');
    await expect(recent.first()).toContainText(tenant.username);
  });

  test("super_admin's home shows the platform figures, including a payment just recorded", async ({
    page,
  }) => {
    const root = await apiAs();
    const before = ((await root.get('/auth/dashboard')) as { data: Dashboard }).data;
    const tenant = await onboardTenant(root);
    const revenue = (d: Dashboard) => Number(d.stats.find((s) => s.key === 'revenueThisMonth')!.value);
    const organizations = (d: Dashboard) => Number(d.stats.find((s) => s.key === 'organizations')!.value);

    await login(page);
    await expect(page.getByRole('heading', { name: /^Welcome back, / })).toBeVisible();
    // Other suites add data in parallel: compare with what the API says at the moment of each load.
    await expect(async () => {
      const now = ((await root.get('/auth/dashboard')) as { data: Dashboard }).data;
      expect(revenue(now)).toBeGreaterThanOrEqual(revenue(before) + tenant.paidPaise);
      expect(organizations(now)).toBeGreaterThanOrEqual(organizations(before) + 1);
      await page.reload();
      await expect(statCards(page)).toHaveText(now.stats.map(cardText), { timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await expect(statCards(page).first()).toContainText('Organizations');
    await expect(page.getByRole('img', { name: 'Revenue by month' })).toBeVisible();
    await root.dispose();
  });

  test('create, edit and close a position; each step is in the activity feed', async ({ page }) => {
    const title = `Data Engineer ${randomUUID().slice(0, 6)}`;
    await login(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Positions' }).click();
    await expect(page).toHaveURL(/\/dashboard\/positions$/);
    await expect(page.getByRole('heading', { name: 'Positions' })).toBeVisible();

    await page.getByRole('button', { name: 'Add Position' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add Position' });
    await dialog.getByRole('spinbutton', { name: /Openings/ }).fill('0');
    await dialog.getByRole('button', { name: 'Add Position' }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await expect(dialog.getByText('Openings must be a whole number of at least 1')).toBeVisible();
    await dialog.getByRole('textbox', { name: /Title/ }).fill(title);
    await dialog.getByRole('textbox', { name: /Department/ }).fill('Analytics');
    await dialog.getByRole('textbox', { name: /Location/ }).fill('Hyderabad');
    await dialog.getByRole('spinbutton', { name: /Openings/ }).fill('2');
    await dialog.getByRole('button', { name: 'Add Position' }).click();
    await expect(page.getByText('Position created successfully')).toBeVisible();

    await page.getByRole('textbox', { name: 'Search by title, department or location...' }).fill(title);
    const row = page.getByRole('row', { name: new RegExp(title) });
    await expect(row.getByRole('cell')).toHaveText([
      title,
      'Analytics',
      'Hyderabad',
      /.+/,
      '2',
      'Open',
      /\d{4}/,
      '',
    ]);

    await row.getByRole('button', { name: `Actions for ${title}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Position' });
    await expect(dialog.getByRole('textbox', { name: /Title/ })).toHaveValue(title);
    await dialog.getByRole('spinbutton', { name: /Openings/ }).fill('5');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Position updated successfully')).toBeVisible();
    await expect(row.getByRole('cell').nth(4)).toHaveText('5');

    await row.getByRole('button', { name: `Actions for ${title}` }).click();
    await page.getByRole('menuitem', { name: 'Close' }).click();
    const confirm = page.getByRole('dialog', { name: 'Close Position' });
    await confirm.getByRole('button', { name: 'Close Position' }).click();
    await expect(page.getByText('Position closed successfully')).toBeVisible();
    await expect(row.getByRole('cell').nth(5)).toHaveText('Closed');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Recent Activity' })
      .click();
    await expect(page).toHaveURL(/\/dashboard\/activity$/);
    await page.getByRole('textbox', { name: 'Search activities' }).fill(title);
    const entries = page.getByRole('list', { name: 'Recent Activity' }).getByRole('listitem');
    await expect(entries).toHaveCount(3);
    await expect(entries.nth(0)).toContainText(`Position "${title}" closed`);
    await expect(entries.nth(1)).toContainText(`Position "${title}" updated`);
    await expect(entries.nth(2)).toContainText(`Position "${title}" created (2 openings)`);
    await expect(entries.nth(2)).toContainText('Created');

    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Created' }).click();
    await expect(entries).toHaveCount(1);
  });

  test("a tenant's new ticket reaches super_admin's bell, and can be marked read", async ({ page }) => {
    const root = await apiAs();
    const tenant = await onboardTenant(root);
    await root.dispose();
    const api = await apiAs(tenant.email, tenant.password);
    const ticket = (await api.post('/auth/support/tickets', {
      message: `Bell check ${tenant.tag}`,
      type: 'feedback',
    })) as { data: { displayId?: string; id: string } };
    await api.dispose();

    await login(page);
    const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
    await expect(bell).toBeVisible();
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByRole('listitem').filter({ hasText: `Bell check ${tenant.tag}` });
    await expect(item).toContainText('New support ticket');
    if (ticket.data.displayId) await expect(item).toContainText(ticket.data.displayId);
    await item.getByRole('button', { name: 'Mark as read: New support ticket' }).click();
    await expect(item.getByRole('button', { name: /Mark as read/ })).toHaveCount(0);

    await item.getByRole('link', { name: 'New support ticket' }).click();
    await expect(page).toHaveURL(/\/dashboard\/support$/);
  });
});
