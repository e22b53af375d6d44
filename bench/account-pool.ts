import { TOTP_PERIOD_SECONDS } from '@portal/shared';

export interface PooledAccount {
  identifier: string;
  /** The last time step handed out with this account; -1 before the first. */
  lastStep: number;
  /** The account's browser cookie from its last sign-in, so the next one is from a known device. */
  deviceCookie?: string;
}

export const stepAt = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);

/**
 * Bench accounts handed out in turn, each with the time step its code is to be of. The portal takes
 * one code per account and step: the step must be above the last the account used
 * (user_totp.last_used_step) and within one step of now. So an account gets the current step, or the
 * next when it has had the current one. When the account whose turn it is has had the next one too,
 * the pool is too small for the rate: its sign-ins would be refused, count toward the account's lock
 * and measure the refusals, so `take` throws instead.
 */
export class AccountPool {
  private turn = 0;
  /** Accounts handed out per step. */
  private readonly perStep = new Map<number, number>();

  constructor(private readonly accounts: PooledAccount[]) {
    if (accounts.length === 0) throw new Error('an account pool needs accounts');
  }

  get size(): number {
    return this.accounts.length;
  }

  take(nowMs: number): { account: PooledAccount; step: number } {
    const account = this.accounts[this.turn]!;
    const now = stepAt(nowMs);
    const step = Math.max(now, account.lastStep + 1);
    if (step > now + 1) {
      throw new Error(
        `the pool of ${this.accounts.length} accounts ran dry: ${this.busiestStep()} sign-ins in one ` +
          `${TOTP_PERIOD_SECONDS}-second step; a larger pool is needed for this rate`,
      );
    }
    this.turn = (this.turn + 1) % this.accounts.length;
    account.lastStep = step;
    this.perStep.set(step, (this.perStep.get(step) ?? 0) + 1);
    return { account, step };
  }

  /** The most accounts any one step was handed out with (each account at most once per step). */
  busiestStep(): number {
    return Math.max(0, ...this.perStep.values());
  }
}
