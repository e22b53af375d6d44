// The process sign-in-load.ts forks: complete sign-ins, `concurrency` at a time, for the seconds asked.
import { Secret, TOTP } from 'otpauth';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@portal/shared';
import { AccountPool, type PooledAccount } from './account-pool.js';
import type { LoadResult } from './load.js';
import type { FromSignInClient, SignInClientOptions, ToSignInClient } from './sign-in-load.js';

const ACCESS_COOKIE = 'access_token=';
const DEVICE_COOKIE = 'device_id=';

let options: SignInClientOptions;
let pool: AccountPool;
let totp: TOTP | null = null;

function post(path: string, body: object, cookie: string | undefined) {
  return fetch(`${options.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/**
 * One sign-in as the web app makes it: the password, then (the account has a second factor) the
 * challenge with the code of the step the pool gave. Done when the last answer is 200 with a session.
 * The browser's device cookie goes back with the account's next sign-in, as a browser would send it,
 * so neither side mails new-device notices.
 */
async function signIn(account: PooledAccount, step: number): Promise<boolean> {
  const cookie = account.deviceCookie;
  let answer = await post(
    '/api/auth/auth-session/login',
    { identifier: account.identifier, password: options.password },
    cookie,
  );
  if (totp) {
    const first = (await answer.json()) as { data?: { challenge?: string } };
    if (answer.status !== 200 || !first.data?.challenge) return false;
    const code = totp.generate({ timestamp: step * TOTP_PERIOD_SECONDS * 1000 });
    answer = await post(
      '/api/auth/auth-session/two-factor',
      { challenge: first.data.challenge, code },
      cookie,
    );
  }
  const cookies = answer.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const body = (await answer.json()) as { success?: boolean };
  account.deviceCookie = cookies.find((c) => c.startsWith(DEVICE_COOKIE)) ?? account.deviceCookie;
  return answer.status === 200 && body.success === true && cookies.some((c) => c.startsWith(ACCESS_COOKIE));
}

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

/**
 * Sign-ins completed within `seconds` per second, as wrk counts requests: those still under way at
 * the end are waited for (so the next measurement starts on an idle portal) but not counted, unless
 * they failed.
 */
async function run(seconds: number): Promise<LoadResult> {
  const deadline = performance.now() + seconds * 1000;
  const times: number[] = [];
  let errors = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < deadline) {
        const { account, step } = pool.take(Date.now());
        const start = performance.now();
        const done = await signIn(account, step).catch(() => false);
        const end = performance.now();
        if (!done) errors++;
        else if (end <= deadline) times.push(end - start);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return {
    rps: times.length / seconds,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    errors,
  };
}

async function handle(message: ToSignInClient): Promise<FromSignInClient> {
  if (message.kind === 'start') {
    options = message.options;
    pool = new AccountPool(options.identifiers.map((identifier) => ({ identifier, lastStep: -1 })));
    totp =
      options.totpSecret === null
        ? null
        : new TOTP({
            digits: TOTP_DIGITS,
            period: TOTP_PERIOD_SECONDS,
            secret: Secret.fromBase32(options.totpSecret),
          });
    return { kind: 'ready' };
  }
  const result = await run(message.seconds);
  return { kind: 'result', result, busiestStep: pool.busiestStep() };
}

process.on('message', (message: ToSignInClient) => {
  void handle(message).then(
    (reply) => process.send!(reply),
    (error: unknown) =>
      process.send!({
        kind: 'failed',
        message: error instanceof Error ? error.message : String(error),
      } satisfies FromSignInClient),
  );
});
