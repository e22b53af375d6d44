import { describe, expect, it } from 'vitest';
import { TOTP_PERIOD_SECONDS } from '@portal/shared';
import { AccountPool, stepAt, type PooledAccount } from './account-pool.js';

const accounts = (n: number): PooledAccount[] =>
  Array.from({ length: n }, (_, i) => ({ identifier: `a${i}`, lastStep: -1 }));
const stepMs = TOTP_PERIOD_SECONDS * 1000;

describe('AccountPool', () => {
  it('hands the accounts out in turn, each with the current step, then the next', () => {
    const pool = new AccountPool(accounts(2));
    const now = 100 * stepMs + 5;
    const taken = Array.from({ length: 4 }, () => pool.take(now));
    expect(taken.map(({ account, step }) => `${account.identifier}@${step}`)).toEqual([
      'a0@100',
      'a1@100',
      'a0@101',
      'a1@101',
    ]);
    expect(pool.busiestStep()).toBe(2);
  });

  it('never gives an account a step it had, and each step is within one of now', () => {
    // Three accounts, five sign-ins every two steps.
    const pool = new AccountPool(accounts(3));
    const seen = new Set<string>();
    for (let ms = 0; ms < 20 * stepMs; ms += (2 * stepMs) / 5) {
      const { account, step } = pool.take(ms);
      expect(seen.has(`${account.identifier}@${step}`)).toBe(false);
      seen.add(`${account.identifier}@${step}`);
      expect(Math.abs(step - stepAt(ms))).toBeLessThanOrEqual(1);
    }
  });

  it('throws when the account whose turn it is has had the next step too', () => {
    const pool = new AccountPool(accounts(2));
    for (let i = 0; i < 4; i++) pool.take(0);
    expect(() => pool.take(stepMs - 1)).toThrow(/ran dry/);
    // A step later the same accounts may sign in again.
    expect(pool.take(2 * stepMs).step).toBe(2);
  });
});
