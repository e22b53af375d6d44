import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { DATA_DIR } from './env';

/**
 * Authenticator codes for the browser tests' accounts. The portal accepts each code's 30-second
 * step once per account (replay refused), within one step either side of now; the test workers are
 * separate processes, so the steps each account has used are kept in one file under a lock.
 */

const PERIOD_MS = 30_000;
const LEDGER = join(DATA_DIR, 'totp-steps.json');
const LOCK = join(DATA_DIR, 'totp-steps.lock');
const ACCOUNTS = join(DATA_DIR, 'second-factor-accounts.json');

export interface SecondFactorAccount {
  email: string;
  password: string;
  secret: string;
}

/** The accounts with two-factor sign-in on and their secrets (written by global setup). */
export function secondFactorAccounts(): SecondFactorAccount[] {
  return existsSync(ACCOUNTS) ? (JSON.parse(readFileSync(ACCOUNTS, 'utf8')) as SecondFactorAccount[]) : [];
}

export function saveSecondFactorAccount(account: SecondFactorAccount) {
  const others = secondFactorAccounts().filter((a) => a.email !== account.email);
  writeFileSync(ACCOUNTS, JSON.stringify([...others, account]));
}

export function secretOf(email: string): string | undefined {
  return secondFactorAccounts().find((a) => a.email.toLowerCase() === email.toLowerCase())?.secret;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withLock<T>(work: () => T): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (tries > 2_000) throw new Error('the TOTP ledger lock was never released');
      await sleep(5);
    }
  }
  try {
    return work();
  } finally {
    rmdirSync(LOCK);
  }
}

/**
 * Per account: the last step handed out, and until when that code is the account's alone. The portal
 * refuses any step not after the last one it accepted, so a later step submitted first would turn an
 * earlier one away: a code is leased until its sign-in has surely been submitted.
 */
type Ledger = Record<string, { step: number; leasedUntil: number }>;
const LEASE_MS = 10_000;
const readLedger = (): Ledger =>
  existsSync(LEDGER) ? (JSON.parse(readFileSync(LEDGER, 'utf8')) as Ledger) : {};

/** The earliest step `email` may still use: after its last one, and not before now. */
function nextStep(ledger: Ledger, email: string, now: number): number {
  return Math.max((ledger[email.toLowerCase()]?.step ?? -1) + 1, Math.floor(now / PERIOD_MS));
}

/** When `email` may take its next step: its lease is over and that step is at most one ahead. */
function readyAt(ledger: Ledger, email: string, now: number): number {
  const step = nextStep(ledger, email, now);
  const stepOpens = step > Math.floor(now / PERIOD_MS) + 1 ? (step - 1) * PERIOD_MS + 200 : 0;
  return Math.max(ledger[email.toLowerCase()]?.leasedUntil ?? 0, stepOpens);
}

function take(ledger: Ledger, email: string, now: number): number {
  const step = nextStep(ledger, email, now);
  ledger[email.toLowerCase()] = { step, leasedUntil: now + LEASE_MS };
  writeFileSync(LEDGER, JSON.stringify(ledger));
  return step;
}

export function codeAt(secret: string, step: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: step * PERIOD_MS });
}

/**
 * Takes a step for one account from `emails` (the one free soonest) and answers its code: the current
 * step or the next (the portal accepts both), waiting while every account is leased or has used both.
 */
export async function claimCode(emails: readonly string[]): Promise<{ email: string; code: string }> {
  for (;;) {
    const claimed = await withLock((): { wait: number } | { email: string; step: number } => {
      const ledger = readLedger();
      const now = Date.now();
      const [email] = [...emails].sort((a, b) => readyAt(ledger, a, now) - readyAt(ledger, b, now));
      const wait = readyAt(ledger, email!, now) - now;
      return wait > 0 ? { wait } : { email: email!, step: take(ledger, email!, now) };
    });
    if ('wait' in claimed) {
      await sleep(claimed.wait);
      continue;
    }
    const secret = secretOf(claimed.email);
    if (!secret) throw new Error(`no secret recorded for ${claimed.email}`);
    return { email: claimed.email, code: codeAt(secret, claimed.step) };
  }
}

/** A code for one account (waiting for a step it has not used). */
export async function codeFor(email: string): Promise<string> {
  return (await claimCode([email])).code;
}

/** For enrolment: a code of a secret not recorded yet, its step noted as used for `email`. */
export async function firstCode(email: string, secret: string): Promise<string> {
  const step = await withLock(() => take(readLedger(), email, Date.now()));
  return codeAt(secret, step);
}
