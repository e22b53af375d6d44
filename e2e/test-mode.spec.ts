import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, login, test } from './fixtures';

/**
 * Issue 20: while payments go through the built-in sandbox, every screen says so. The browser tests'
 * portal has no Razorpay keys, so it runs with the sandbox and the marker must show.
 */

const EXPLANATION = 'Payments go through the built-in sandbox; no real money is charged.';
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };

function marker(scope: Page | Locator) {
  return scope.getByRole('button', { name: 'Test mode', exact: true });
}

function explanation(page: Page) {
  return page.getByRole('note').filter({ hasText: EXPLANATION });
}

/** Open: on screen in full, wider than the marker. Closed, it is only the marker's description. */
async function expectExplanationShown(page: Page, shown: boolean) {
  const note = explanation(page);
  if (!shown) {
    await expect.poll(async () => (await note.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
    return;
  }
  await expect(note).toBeInViewport({ ratio: 1 });
  expect((await note.boundingBox())!.width).toBeGreaterThan(100);
}

/** The explanation opens from the keyboard and by a click or tap, not only on hover, and closes again. */
async function expectExplanationReachable(page: Page) {
  const button = marker(page);
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expectExplanationShown(page, true);
  await page.keyboard.press('Escape');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expectExplanationShown(page, false);
  await button.click();
  await expectExplanationShown(page, true);
  await button.click();
  await expectExplanationShown(page, false);
}

/** The dashboard's data has arrived and the progress bar is gone, for a screenshot worth looking at. */
async function settle(page: Page) {
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

async function expectReadable(page: Page) {
  const results = await new AxeBuilder({ page })
    .include('button[aria-describedby]')
    .withRules(['color-contrast'])
    .analyze();
  expect(results.violations).toEqual([]);
  expect(results.passes.map((p) => p.id)).toContain('color-contrast');
}

/** Shares no pixel with any button or link of the top bar. */
async function expectClearOfControls(page: Page) {
  const badge = (await marker(page.getByRole('banner')).boundingBox())!;
  const controls = page.getByRole('banner').locator('button, a');
  expect(await controls.count()).toBeGreaterThanOrEqual(3);
  for (const control of await controls.all()) {
    if (!(await control.isVisible())) continue;
    // The marker is a button itself (it opens its explanation).
    if ((await control.textContent()) === 'Test mode') continue;
    const box = (await control.boundingBox())!;
    const apart =
      badge.x + badge.width <= box.x ||
      box.x + box.width <= badge.x ||
      badge.y + badge.height <= box.y ||
      box.y + box.height <= badge.y;
    expect(
      apart,
      `the marker overlaps ${(await control.getAttribute('aria-label')) ?? (await control.textContent())}`,
    ).toBe(true);
  }
  // Inside the viewport, not pushed off its right edge.
  expect(badge.x + badge.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  // The bar keeps its height, so it covers none of the page under it.
  const bar = (await page.getByRole('banner').boundingBox())!;
  const heading = (await page.getByRole('heading', { level: 1 }).first().boundingBox())!;
  expect(bar.y + bar.height).toBeLessThanOrEqual(heading.y);
}

test.describe('test mode (the browser tests’ portal takes payments through the sandbox)', () => {
  test('the sign-in screen and the dashboard carry the marker, with its explanation', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/auth/login');
    await expect(marker(page.getByRole('main'))).toBeVisible();
    await expect(marker(page)).toHaveAccessibleDescription(EXPLANATION);
    await expectReadable(page);
    await expectExplanationReachable(page);
    await page.screenshot({ path: '/tmp/test-mode-sign-in-1280.png' });

    await login(page);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(marker(page.getByRole('banner'))).toBeVisible();
    await expect(marker(page)).toHaveCount(1);
    await expectReadable(page);
    await expectExplanationReachable(page);
    await expectClearOfControls(page);
    await settle(page);
    await page.screenshot({ path: '/tmp/test-mode-dashboard-1280.png' });

    // Another page of the shell keeps it.
    await page.goto('/dashboard/billing');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(marker(page.getByRole('banner'))).toBeVisible();
  });

  test('at 375 px wide the marker fits: no sideways scroll, and clear of the bell and avatar', async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/auth/login');
    await expect(marker(page)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectReadable(page);
    await page.screenshot({ path: '/tmp/test-mode-sign-in-375.png' });

    await login(page);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(marker(page.getByRole('banner'))).toBeVisible();
    await expect(page.getByRole('button', { name: /^Notifications/ })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Open user menu/ })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectClearOfControls(page);
    await settle(page);
    await page.screenshot({ path: '/tmp/test-mode-dashboard-375.png' });
  });
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, viewport: PHONE });

  test('a tap opens the explanation, inside the screen, and another closes it', async ({ page }) => {
    await page.goto('/auth/login');
    await marker(page).tap();
    await expectExplanationShown(page, true);
    await page.screenshot({ path: '/tmp/test-mode-explanation-375.png' });
    await marker(page).tap();
    await expectExplanationShown(page, false);
    // On the dashboard too, where the marker sits under the name.
    await login(page);
    await marker(page.getByRole('banner')).tap();
    await expectExplanationShown(page, true);
  });
});
