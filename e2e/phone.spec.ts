import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { apiAs, expect, login, SUPER_ADMIN, test } from './fixtures';
import { pagesByAddress, planScenario, setUpScenario, type ScenarioIds } from './scenario';

/**
 * Phones (issue 21): every screen of the walkthrough at 375 × 812, as the super administrator, a
 * tenant admin and a member with a custom role. On each: the page is no wider than the screen, every
 * row's action menu (⋮) is on screen without scrolling sideways and opens, and axe finds nothing (the
 * walkthrough's tags; it covers 1280 px). Buttons that commit money or create accounts are touch
 * targets of 44 px at least, apart from each other. No screenshots: a failure keeps its trace.
 */

const PHONE = { width: 375, height: 812 };
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
/** The smallest touch target for money and accounts (WCAG 2.5.5), and the least room between two. */
const TARGET_PX = 44;
const GAP_PX = 8;

const plan = planScenario('phone');
const { tag, admin: ADMIN, member: MEMBER, customRole: CUSTOM_ROLE } = plan;
let ids: ScenarioIds;

type Violations = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'];

function summarize(violations: Violations) {
  return violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
}

/** Left and right edges in page coordinates: where the element is without any sideways scrolling. */
function pageEdges(locator: Locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left + window.scrollX, right: r.right + window.scrollX };
  });
}

async function expectOnScreenWidth(locator: Locator, what: string) {
  const { left, right } = await pageEdges(locator);
  expect.soft(left, `${what}: left edge on screen`).toBeGreaterThanOrEqual(0);
  expect.soft(right, `${what}: right edge on screen`).toBeLessThanOrEqual(PHONE.width);
}

/** Opens and closes each row's ⋮ in the main area, after checking it is on screen. */
async function checkRowMenus(page: Page, where: string) {
  const buttons = page.getByRole('main').locator('button[aria-haspopup="menu"]');
  const count = await buttons.count();
  for (let i = 0; i < count; i++) {
    const button = buttons.nth(i);
    const name = `${where}: ${await button.getAttribute('aria-label')}`;
    await expectOnScreenWidth(button, name);
    await button.click();
    const menu = page.getByRole('menu');
    await expect(menu, `${name} opens`).toBeVisible();
    await expectOnScreenWidth(menu, `${name}, its menu`);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
  }
  return count;
}

interface CheckOptions {
  /** What shows once the screen is ready; the page's h1 when not given. */
  ready?: Locator;
  /** Rules not run on this screen, each with its reason in the call. */
  disableRules?: string[];
}

/**
 * MUI portals an open menu to the end of <body>, outside every landmark, which axe's best-practice
 * rule `region` reports; the ARIA menu pattern does not require a landmark around a popup.
 */
const MENU_OPEN: CheckOptions['disableRules'] = ['region'];

/** Waits for the screen to settle, then: no sideways scroll, row menus on screen and opening, axe. */
async function check(page: Page, who: string, screen: string, options: CheckOptions = {}) {
  const where = `${who}/${screen}`;
  await expect(options.ready ?? page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  // MUI's enter transitions (dialogs, menus, drawers) last at most 225 ms; colours mid-fade are not the real ones.
  if (options.ready) await page.waitForTimeout(250);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(width, `page width: ${where}`).toBeLessThanOrEqual(PHONE.width);
  const axe = new AxeBuilder({ page }).withTags(AXE_TAGS);
  if (options.disableRules) axe.disableRules(options.disableRules);
  expect.soft(summarize((await axe.analyze()).violations), `axe: ${where}`).toEqual([]);
  // After axe, since a menu left open would change what it sees; overlays have no rows.
  if (!options.ready) {
    await checkRowMenus(page, where);
    // A list's pager: its arrows on screen, not cut off at the card's edge.
    for (const arrow of await page
      .getByRole('main')
      .getByRole('button', { name: /^Go to (next|previous) page$/ })
      .all())
      await expectOnScreenWidth(arrow, `${where}: ${await arrow.getAttribute('aria-label')}`);
  }
}

async function visit(page: Page, who: string, screen: string, path: string) {
  await page.goto(path);
  await check(page, who, screen);
}

/** Each at least 44 px high and wide, on screen, and no two closer than 8 px. */
async function expectTouchTargets(buttons: Locator[], where: string) {
  const boxes = [];
  for (const button of buttons) {
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    const name = `${where}: ${await button.textContent()}`;
    expect.soft(box.height, `${name} height`).toBeGreaterThanOrEqual(TARGET_PX);
    expect.soft(box.width, `${name} width`).toBeGreaterThanOrEqual(TARGET_PX);
    await expectOnScreenWidth(button, name);
    boxes.push({ name, ...(await button.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect)) });
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      const apart = Math.max(b.left - a.right, a.left - b.right, b.top - a.bottom, a.top - b.bottom);
      expect.soft(apart, `${a.name} and ${b.name} apart`).toBeGreaterThanOrEqual(GAP_PX);
    }
  }
}

/** The top bar at 375 px: the brand on one line, and no two of its parts overlapping. */
async function checkTopBar(page: Page, who: string) {
  const bar = page.getByRole('banner');
  const brand = bar.getByRole('link', { name: 'Interview Credits' });
  const lineHeight = await brand.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  const brandBox = (await brand.boundingBox())!;
  expect.soft(brandBox.height, `${who}: the brand on one line`).toBeLessThan(lineHeight * 1.5);
  const parts = [
    bar.getByRole('button', { name: 'Toggle navigation' }),
    brand,
    bar.getByRole('button', { name: /^Notifications/ }),
    bar.getByRole('button', { name: /^Open user menu/ }),
  ];
  const boxes = [];
  for (const part of parts) {
    const box = (await part.boundingBox())!;
    expect.soft(box.x + box.width, `${who}: top bar part on screen`).toBeLessThanOrEqual(PHONE.width);
    boxes.push(box);
  }
  for (let i = 1; i < boxes.length; i++) {
    const [a, b] = [boxes[i - 1]!, boxes[i]!];
    expect.soft(a.x + a.width, `${who}: top bar parts ${i - 1} and ${i} apart`).toBeLessThanOrEqual(b.x);
  }
}

/** Home, the top bar's overlays, every page by address, and the side panels of the lists. */
async function everyScreen(page: Page, who: string) {
  await page.goto('/dashboard');
  await check(page, who, 'home');
  await checkTopBar(page, who);
  await page.getByRole('button', { name: /^Open user menu/ }).click();
  await check(page, who, 'user-menu', { ready: page.getByRole('menu'), disableRules: MENU_OPEN });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /^Notifications/ }).click();
  await check(page, who, 'notifications', { ready: page.getByRole('dialog', { name: 'Notifications' }) });
  await page.keyboard.press('Escape');

  for (const [screen, path] of pagesByAddress(ids)) await visit(page, who, screen, path);

  // The side panels of the lists take the whole width of a phone.
  await page.goto('/dashboard/usermanagement');
  await page.getByRole('textbox', { name: 'Search admin users...' }).fill(ADMIN.username);
  await page.getByRole('button', { name: `Actions for ${ADMIN.username}`, exact: true }).click();
  await page.getByRole('menuitem', { name: 'View' }).click();
  await check(page, who, 'usermanagement-details', {
    ready: page.getByRole('dialog', { name: 'Admin User Details' }),
  });
  await page.goto('/dashboard/userroles');
  await page.getByRole('textbox', { name: 'Search by role name or ID...' }).fill(CUSTOM_ROLE);
  await page.getByRole('button', { name: `View Permissions: ${CUSTOM_ROLE}` }).click();
  await check(page, who, 'userroles-permissions-panel', { ready: page.getByRole('dialog') });
}

test.describe('phone, 375 px', () => {
  // Each worker that runs one of these sets up its own tenant (beforeAll), so they may spread out.
  test.describe.configure({ mode: 'parallel' });
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, actionTimeout: 15_000 });

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(60_000);
    ids = await setUpScenario(browser, plan);
  });

  test('super admin: every screen, and onboarding with a long email', async ({ page }) => {
    test.setTimeout(240_000);
    const who = 'super_admin';
    await login(page, SUPER_ADMIN.email, SUPER_ADMIN.password);
    await everyScreen(page, who);
    await visit(page, who, 'inviteuser-edit', `/dashboard/inviteuser?edit=${ids.adminId}`);

    // A long email made the subscription page's heading 388-414 px wide (issue 21).
    const username = `phone.sa.${tag}`;
    const email = `phone.super.admin.with.a.long.address.${tag}@a-long-company-name.example.test`;
    await page.goto('/dashboard/inviteuser');
    await page.getByRole('textbox', { name: /^Username/ }).fill(username);
    await page.getByRole('textbox', { name: /^Email/ }).fill(email);
    await page.getByRole('textbox', { name: /^Contact Number/ }).fill('9876543212');
    await page.getByRole('textbox', { name: /^Company Name/ }).fill(`Phone SA ${tag}`);
    await expectTouchTargets(
      [
        page.getByRole('button', { name: 'Cancel' }),
        page.getByRole('button', { name: 'Continue to Subscription' }),
      ],
      `${who}/inviteuser`,
    );
    await page.getByRole('button', { name: 'Continue to Subscription' }).click();
    await expect(page).toHaveURL(/\/dashboard\/subscription\?organizationId=/);
    await expect(
      page.getByRole('heading', { name: `Setting up subscription for ${username} (${email})` }),
    ).toBeVisible();
    await page.getByRole('spinbutton', { name: /^Credits/ }).fill('20');
    await page.getByRole('spinbutton', { name: /^Price per credit/ }).fill('250');
    await check(page, who, 'subscription');
    await expectTouchTargets(
      [
        page.getByRole('button', { name: 'Create User & Subscription' }),
        page.getByRole('button', { name: 'Manual Payment' }),
      ],
      `${who}/subscription`,
    );
    await page.getByRole('button', { name: 'Manual Payment' }).click();
    await expect(page).toHaveURL(/\/dashboard\/manualPayment$/);
    await check(page, who, 'manual-payment');
    await expectTouchTargets(
      [
        page.getByRole('button', { name: 'Submit Payment & Create Account' }),
        page.getByRole('button', { name: 'Cancel' }),
      ],
      `${who}/manual-payment`,
    );
  });

  test('tenant admin: every screen, and buying credits', async ({ page }) => {
    test.setTimeout(240_000);
    const who = 'admin';
    // A key in the API keys list, whose Revoke must be on screen too.
    const admin = await apiAs(ADMIN.email, ADMIN.password);
    try {
      await admin.post('/auth/api-keys', { name: `Interview bot ${tag}` });
    } finally {
      await admin.dispose();
    }
    await login(page, ADMIN.email, ADMIN.password);
    await everyScreen(page, who);

    await page.goto('/dashboard/billing');
    await check(page, who, 'billing-with-key');
    await expectOnScreenWidth(
      page.getByRole('button', { name: `Revoke Interview bot ${tag}` }),
      `${who}/billing: Revoke`,
    );
    await expectTouchTargets([page.getByRole('button', { name: 'Buy credits' })], `${who}/billing`);
    await page.getByRole('button', { name: 'Buy credits' }).click();
    const checkout = page.getByRole('dialog', { name: 'Test checkout' });
    await check(page, who, 'billing-checkout', { ready: checkout });
    await expectTouchTargets(
      [checkout.getByRole('button', { name: 'Cancel' }), checkout.getByRole('button', { name: /^Pay/ })],
      `${who}/billing-checkout`,
    );
    await checkout.getByRole('button', { name: 'Cancel' }).click();
    await expect(checkout).toHaveCount(0);
  });

  test('member with a custom role: every screen', async ({ page }) => {
    test.setTimeout(240_000);
    await login(page, MEMBER.email, MEMBER.password);
    await everyScreen(page, 'custom_role');
  });
});
