import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { Secret, TOTP } from 'otpauth';
import { chromium, type Page } from 'playwright-core';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@portal/shared';
import type { Figure } from './api-bench.js';

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Turns on two-factor sign-in for the signed-in browser through the routes the setup page uses: a
 * super administrator reaches no other page until it is on (issue 24).
 */
async function enrolTwoFactor(page: Page, base: string) {
  const csrf = (await page.context().cookies(base)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const post = async (path: string, data?: object) => {
    const res = await page.request.post(`${base}${path}`, { headers: { 'x-csrf-token': csrf }, data });
    if (!res.ok())
      throw new Error(`lighthouse sign-in: ${path} answered ${res.status()} ${await res.text()}`);
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };
  const { secret } = await post('/api/auth/two-factor/setup');
  const totp = new TOTP({
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(String(secret)),
  });
  await post('/api/auth/two-factor/enable', { code: totp.generate() });
}

/**
 * Lighthouse (desktop preset) on the sign-in page and, signed in, the dashboard home. The browser is
 * signed in once through the real form; Lighthouse then keeps its storage. An audit that ends on
 * another page than the one asked for fails the run rather than scoring that page.
 */
export async function benchLighthouse(
  base: string,
  admin: { email: string; password: string },
  log: (line: string) => void,
): Promise<Figure[]> {
  const profile = mkdtempSync(join(tmpdir(), 'portal-lh-'));
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    userDataDir: profile,
  });
  const figures: Figure[] = [];
  try {
    const audit = async (name: string, url: string, keepStorage: boolean) => {
      log(`[lighthouse] ${name}`);
      const result = await lighthouse(
        url,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
          disableStorageReset: keepStorage,
        },
        desktopConfig,
      );
      const lhr = result!.lhr;
      if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname)
        throw new Error(`lighthouse: ${name} ended on ${lhr.finalDisplayedUrl}, not ${url}`);
      const score = Math.round((lhr.categories.performance!.score ?? 0) * 100);
      const tbt = lhr.audits['total-blocking-time']!.numericValue ?? 0;
      figures.push({
        name: `lighthouse: ${name} performance`,
        value: score,
        goal: '≥ 95',
        pass: score >= 95,
        detail: `final URL ${lhr.finalDisplayedUrl}`,
      });
      figures.push({
        name: `lighthouse: ${name} total blocking time (ms)`,
        value: tbt,
        goal: '≤ 150',
        pass: tbt <= 150,
        detail: '',
      });
    };
    await audit('sign-in page', `${base}/auth/login`, false);

    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${base}/auth/login`);
    await page.getByLabel('Email or username').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/auth\/two-factor-setup/);
    await enrolTwoFactor(page, base);
    await page.close();
    await browser.close();
    await audit('dashboard home', `${base}/dashboard`, true);
  } finally {
    chrome.kill();
    rmSync(profile, { recursive: true, force: true });
  }
  return figures;
}
