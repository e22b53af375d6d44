import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  expect,
  request as playwrightRequest,
  test as base,
  type APIRequestContext,
  type Page,
} from '@playwright/test';
import { gstinCheckCharacter } from '@portal/shared';
import { BASE_URL, MAIL_DIR, SUPER_ADMIN, SUPER_ADMIN_POOL_PREFIX } from './env';
import { claimCode, codeFor, secondFactorAccounts, secretOf } from './second-factor';

/**
 * Signs in through the sign-in screen (and its code step, for an account with two-factor sign-in on)
 * and waits for the dashboard. Without an account, one of the super administrators (see
 * superAdminSignIn).
 */
export async function login(page: Page, email?: string, password?: string) {
  const account = await signInAs(email, password);
  await page.goto('/auth/login');
  await page.getByLabel('Email or username').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (account.code) {
    await page.getByLabel('Authentication code').fill(await account.code());
    await page.getByRole('button', { name: 'Verify' }).click();
  }
  await expect(page).toHaveURL(/\/dashboard/);
}

/**
 * Who signs in, and how to get their code when they have a second factor. Any super administrator
 * will do for most tests: each code works once, so they take turns (second-factor.ts).
 */
async function signInAs(email?: string, password?: string) {
  if (email === undefined) {
    const { email: chosen, code } = await claimCode(superAdminEmails());
    const pooled = secondFactorAccounts().find((a) => a.email === chosen)!;
    return { email: chosen, password: pooled.password, code: async () => code };
  }
  const account = { email, password: password ?? SUPER_ADMIN.password };
  return secretOf(email) ? { ...account, code: () => codeFor(email) } : { ...account, code: undefined };
}

/** The portal's own super administrator and the ones global setup added, all with a second factor. */
export function superAdminEmails(): string[] {
  return secondFactorAccounts()
    .filter((a) => a.email === SUPER_ADMIN.email || a.email.startsWith(SUPER_ADMIN_POOL_PREFIX))
    .map((a) => a.email);
}

/** An API client signed in as a user, for setting up data; sends the CSRF header like the web app. */
export interface ApiClient {
  context: APIRequestContext;
  userId: string;
  get(path: string): Promise<unknown>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<unknown>;
  put(path: string, body?: unknown): Promise<unknown>;
  delete(path: string): Promise<unknown>;
  dispose(): Promise<void>;
}

export async function apiAs(email?: string, password?: string): Promise<ApiClient> {
  const account = await signInAs(email, password);
  const context = await playwrightRequest.newContext({ baseURL: BASE_URL });
  let res = await context.post('/api/auth/auth-session/login', {
    data: { identifier: account.email, password: account.password },
  });
  if (!res.ok()) throw new Error(`sign-in failed for ${account.email}: ${res.status()} ${await res.text()}`);
  const challenge = ((await res.json()) as { data: { challenge?: string } }).data.challenge;
  if (challenge) {
    if (!account.code)
      throw new Error(`${account.email} has two-factor sign-in on, but no secret is recorded`);
    res = await context.post('/api/auth/auth-session/two-factor', {
      data: { challenge, code: await account.code() },
    });
    if (!res.ok())
      throw new Error(`second step failed for ${account.email}: ${res.status()} ${await res.text()}`);
  }
  return apiClientOf(context, res.headers()['x-user-id']!);
}

/** The client over a signed-in request context. */
export function apiClientOf(context: APIRequestContext, userId: string): ApiClient {
  const csrf = async () =>
    (await context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await context.fetch(`/api${path}`, {
      method,
      data: body,
      headers: method === 'GET' ? headers : { 'X-CSRF-Token': await csrf(), ...headers },
    });
    const json = await response.json().catch(() => null);
    if (!response.ok()) throw new Error(`${method} ${path} → ${response.status()}: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    context,
    userId,
    get: (path) => call('GET', path),
    post: (path, body, headers) => call('POST', path, body, headers),
    put: (path, body) => call('PUT', path, body),
    delete: (path) => call('DELETE', path),
    dispose: () => context.dispose(),
  };
}

/** The seller's PAN, and its GSTIN in Karnataka (29) with the check character the shared rule computes. */
const SELLER_PAN = 'AABCI1234C';
const SELLER_GSTIN_14 = `29${SELLER_PAN}1Z`;

/**
 * The seller's tax details, which every payment needs (no invoice can be issued without them): set
 * once per run by global-setup.ts, as PUT /auth/tax-profile takes them.
 */
export const SELLER_TAX_PROFILE = {
  legalName: 'Interview Credits Portal Private Limited',
  address: '12 MG Road, Bengaluru 560001',
  stateCode: '29',
  gstin: `${SELLER_GSTIN_14}${gstinCheckCharacter(SELLER_GSTIN_14)}`,
  pan: SELLER_PAN,
  sac: '998314',
  invoicePrefix: 'IC',
  creditNotePrefix: 'CN',
  signatory: 'Portal Owner',
};

interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Each written beside the mail (an invoice's PDF). */
  attachments?: { filename: string; path: string }[];
}

/** A subscription of 10 credits at ₹100 each with 18 % GST (₹1,180), as POST /auth/onboarding takes it. */
export function tenCreditsSubscription(demoTrials = 2) {
  return {
    totalInterviewCredits: 10,
    interviewCreditsPricePaise: 10_000,
    taxRateBp: 1800,
    subTotalPaise: 100_000,
    totalAmountPaise: 100_000,
    grandTotalAmountPaise: 118_000,
    demoTrials,
  };
}

/**
 * Every email sent so far to an address that `matches`, newest first (the portal writes each to
 * MAIL_DIR in the browser tests as a .json file, its attachments beside it).
 */
export function mailsTo(address: string, matches: (mail: Mail) => boolean = () => true): Mail[] {
  if (!existsSync(MAIL_DIR)) return [];
  return readdirSync(MAIL_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .reverse()
    .flatMap((f) => {
      // The portal writes a mail's file in place: one caught half-written is read on the next look.
      try {
        return [JSON.parse(readFileSync(join(MAIL_DIR, f), 'utf8')) as Mail];
      } catch {
        return [];
      }
    })
    .filter((m) => m.to.toLowerCase() === address.toLowerCase() && matches(m));
}

/** The newest email sent to an address that `matches`, waited for. */
export async function latestMailTo(
  address: string,
  matches: (mail: Mail) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const newest = mailsTo(address, matches)[0];
    if (newest) return newest;
    if (Date.now() > deadline) throw new Error(`no email to ${address}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const LINK = /https?:\/\/\S+/;

/**
 * The link of the newest email to an address that carries one: an invitation or a password reset.
 * A payment's receipt, which carries none, can be written in the same millisecond as the invitation.
 */
export async function latestLinkTo(address: string): Promise<string> {
  return linkIn(await latestMailTo(address, (mail) => LINK.test(mail.text)));
}

/** The first link in an email's text. */
export function linkIn(mail: Mail): string {
  const match = LINK.exec(mail.text);
  if (!match) throw new Error(`no link in "${mail.subject}"`);
  return match[0];
}

/**
 * Every test's page fails on a Content-Security-Policy violation: the portal's policy allows only its
 * own scripts (no inline or eval), and a screen that needs more would break in production.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text()))
        violations.push(`${page.url()}: ${message.text()}`);
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(
          `Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`,
        );
      });
    });
    await use(page);
    expect(violations, 'Content Security Policy violations').toEqual([]);
  },
});
export { expect, SUPER_ADMIN };
