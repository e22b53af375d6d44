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

type Ledger = Record<string, number>;
const readLedger = (): Ledger =>
  existsSync(LEDGER) ? (JSON.parse(readFileSync(LEDGER, 'utf8')) as Ledger) : {};

/** The earliest step `email` may still use: after its last one, and not before now. */
function nextStep(ledger: Ledger, email: string, now: number): number {
  return Math.max((ledger[email.toLowerCase()] ?? -1) + 1, Math.floor(now / PERIOD_MS));
}

export function codeAt(secret: string, step: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: step * PERIOD_MS });
}

/**
 * Takes a step for one account from `emails` (the one free soonest) and answers its code: the current
 * step or the next (the portal accepts both), waiting when every account has used both.
 */
export async function claimCode(emails: readonly string[]): Promise<{ email: string; code: string }> {
  for (;;) {
    const claimed = await withLock((): { wait: number } | { email: string; step: number } => {
      const ledger = readLedger();
      const now = Date.now();
      const current = Math.floor(now / PERIOD_MS);
      const [email] = [...emails].sort((a, b) => nextStep(ledger, a, now) - nextStep(ledger, b, now));
      const step = nextStep(ledger, email!, now);
      if (step > current + 1) return { wait: (step - 1) * PERIOD_MS - now + 200 };
      ledger[email!.toLowerCase()] = step;
      writeFileSync(LEDGER, JSON.stringify(ledger));
      return { email: email!, step };
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
  const step = await withLock(() => {
    const ledger = readLedger();
    const claimed = nextStep(ledger, email, Date.now());
    ledger[email.toLowerCase()] = claimed;
    writeFileSync(LEDGER, JSON.stringify(ledger));
    return claimed;
  });
  return codeAt(secret, step);
}
