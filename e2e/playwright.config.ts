import { defineConfig } from '@playwright/test';
import { BASE_URL, DATA_DIR, E2E_PORT, MAIL_DIR, SUPER_ADMIN } from './env';

/**
 * Every variable apps/api/src/env.ts reads, so nothing in the caller's shell (NODE_ENV=production,
 * DATABASE_URL, RAZORPAY_KEY_ID, TRUST_PROXY...) reaches the portal: Playwright starts the webServer
 * with its `env` laid over process.env (WebServerPlugin in playwright/lib/runner), not instead of it.
 * An empty value counts as unset there. E2E_WEB_DIST_DIR serves another build of the web app.
 */
const portalEnv: Record<string, string> = {
  NODE_ENV: '',
  PORT: String(E2E_PORT),
  HOST: '127.0.0.1',
  PUBLIC_URL: BASE_URL,
  TRUST_PROXY: '',
  DATA_DIR,
  DATABASE_URL: '',
  ADMIN_EMAIL: SUPER_ADMIN.email,
  ADMIN_PASSWORD: SUPER_ADMIN.password,
  SESSION_SECRET: '',
  SMTP_URL: `file://${MAIL_DIR}`,
  LOGIN_ATTEMPTS_PER_ADDRESS: '100000',
  MAIL_FROM: '',
  PRODUCT_URL: '',
  CHATBOT_URL: '',
  PAYMENT_PROVIDER: '',
  RAZORPAY_KEY_ID: '',
  RAZORPAY_KEY_SECRET: '',
  RAZORPAY_WEBHOOK_SECRET: '',
  LOG_LEVEL: 'warn',
  // renewals.spec.ts moves the billing clock: it runs last, in a project of its own.
  TEST_CLOCK: 'on',
  WEB_DIST_DIR: process.env.E2E_WEB_DIST_DIR ?? '',
};

/** The tours of every screen and control run in the long mode only (see testIgnore below). */
const longTours =
  process.env.TEST_LONG === '1' ? [] : ['every-action.spec.ts', 'walkthrough.spec.ts', 'phone.spec.ts'];

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // The seller's tax details, which every payment of the tests needs.
  globalSetup: './global-setup.ts',
  // The tours of every screen and control (each role's crawl, walkthrough with axe, and phone tour: 3 to 5
  // minutes each) run in the long mode, `npm run test:long`, which CI runs (docs/decisions/019).
  testIgnore: longTours,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // A browser test that fails is run once more; one that then passes is listed as FLAKY at the end of
  // the test command (scripts/summarize.mjs), with the first try's error in the log above it.
  retries: 1,
  // renewals.spec.ts moves the billing clock forward, which would move the dates every other test reads:
  // it runs after all of them.
  projects: [
    { name: 'portal', testIgnore: [...longTours, 'renewals.spec.ts'] },
    { name: 'billing clock', testMatch: 'renewals.spec.ts', dependencies: ['portal'] },
  ],
  reporter: [['list'], ['json', { outputFile: '../.test-reports/playwright.json' }]],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium; a test tool's own browser download does not work here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node ../scripts/start.mjs',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: portalEnv,
  },
});
