import { setTimeout as sleep } from 'node:timers/promises';
import { Secret, TOTP } from 'otpauth';
import { FormData, type Dispatcher } from 'undici';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@portal/shared';
import { DEVICE_COOKIE } from '../apps/api/src/plugins/session-cookies.js';
import { AccountPool, stepAt } from './account-pool.js';
import { BrowserSession, type Answer } from './tenant-day-session.js';

/**
 * What the day of a tenant reports on, one line each: the route template, and for the users list
 * which of its uses (the first page, a later page, a search), as they cost the database differently.
 */
export const ROUTES = [
  'POST /api/auth/auth-session/login',
  'POST /api/auth/auth-session/two-factor',
  'GET /api/auth/users',
  'GET /api/auth/users?page=',
  'GET /api/auth/users?search=',
  'GET /api/auth/invoices',
  'GET /api/auth/invoices/:id/pdf',
  'GET /api/auth/credits',
  'POST /api/admin/payment/order',
  'POST /api/admin/payment/sandbox/pay',
  'POST /api/admin/payment/verify',
  'GET /api/auth/support/tickets',
  'POST /api/auth/support/tickets',
  'POST /api/auth/auth-session/logout',
  'POST /api/v1/credits/use',
] as const;
export type Route = (typeof ROUTES)[number];

/** Told when a request starts; the function it answers is called once the answer is read in full. */
export type Recorder = (route: Route) => (ok: boolean, failure?: string) => void;

/** The run's settings a simulated admin needs. */
export interface AdminSettings {
  password: string;
  /** The one TOTP secret (base32) every admin of the data set has confirmed. */
  totpSecret: string;
  /** Mean pause between two actions, ms; each pause is drawn evenly from half to one and a half of it. */
  thinkMs: number;
  /** Actions between a sign-in and its sign-out. */
  sessionActions: number;
  /** Size of the file attached to each ticket. */
  attachmentBytes: number;
  /** Members of each organization, so paging and searching stay within its list. */
  members: number;
}

class ActionFailed extends Error {}

interface Visit {
  call: (route: Route, method: 'GET' | 'POST', path: string, body?: object | FormData) => Promise<Answer>;
  settings: AdminSettings;
  pick: (n: number) => number;
}

interface Action {
  name: string;
  weight: number;
  run: (visit: Visit) => Promise<void>;
}

const dataOf = <T>(answer: Answer) => (answer.json as { data: T }).data;

/**
 * The admin's mix: weights out of 100, each with why. A session is a sign-in with the second factor,
 * `sessionActions` of these in the proportions of their weights, and a sign-out.
 */
export const MIX: Action[] = [
  {
    // The Users screen is where a tenant's admin spends the day: invitations, access, status.
    name: 'list users',
    weight: 30,
    run: async ({ call }) =>
      void (await call('GET /api/auth/users', 'GET', '/api/auth/users?page=1&pageSize=10')),
  },
  {
    // Half as often as the first page: an organization of some fifty people fits in a few pages.
    name: 'page through users',
    weight: 15,
    run: async ({ call, settings, pick }) => {
      const pages = Math.max(2, Math.ceil(settings.members / 10));
      await call(
        'GET /api/auth/users?page=',
        'GET',
        `/api/auth/users?page=${2 + pick(pages - 1)}&pageSize=10`,
      );
    },
  },
  {
    // As often as paging: finding one person by name is the other way to reach a user.
    name: 'search users',
    weight: 15,
    run: async ({ call, settings, pick }) =>
      void (await call(
        'GET /api/auth/users?search=',
        'GET',
        `/api/auth/users?page=1&pageSize=10&search=user${1 + pick(settings.members)}`,
      )),
  },
  {
    // Finance work: the invoice register, then one invoice's PDF to file or forward.
    name: 'open an invoice',
    weight: 12,
    run: async ({ call, pick }) => {
      const invoices = dataOf<{ id: string }[]>(
        await call('GET /api/auth/invoices', 'GET', '/api/auth/invoices?page=1&pageSize=10'),
      );
      if (invoices.length === 0) throw new ActionFailed('no invoice to open');
      const answer = await call(
        'GET /api/auth/invoices/:id/pdf',
        'GET',
        `/api/auth/invoices/${invoices[pick(invoices.length)]!.id}/pdf`,
      );
      if (!answer.contentType.startsWith('application/pdf') || answer.bytes === 0)
        throw new ActionFailed(`the PDF came as ${answer.contentType}, ${answer.bytes} bytes`);
    },
  },
  {
    // The Billing screen, to watch the balance the interview bot draws down all day.
    name: 'check the balance',
    weight: 13,
    run: async ({ call }) => void (await call('GET /api/auth/credits', 'GET', '/api/auth/credits')),
  },
  {
    // Rarer: a top-up when the balance runs low, through the sandbox's checkout as a customer pays.
    name: 'buy credits',
    weight: 7,
    run: async ({ call, pick }) => {
      const created = dataOf<{ order: { providerOrderId: string } }>(
        await call('POST /api/admin/payment/order', 'POST', '/api/admin/payment/order', {
          credits: 10 * (1 + pick(10)),
        }),
      );
      const checkout = dataOf<object>(
        await call('POST /api/admin/payment/sandbox/pay', 'POST', '/api/admin/payment/sandbox/pay', {
          razorpay_order_id: created.order.providerOrderId,
        }),
      );
      await call('POST /api/admin/payment/verify', 'POST', '/api/admin/payment/verify', checkout);
    },
  },
  {
    // Rarer still: a problem worth a ticket, with a screenshot or document attached.
    name: 'raise a ticket',
    weight: 8,
    run: async ({ call, settings }) => {
      await call('GET /api/auth/support/tickets', 'GET', '/api/auth/support/tickets?page=1&pageSize=10');
      const form = new FormData();
      form.set('message', 'Candidates report the interview link opens a blank page; report attached.');
      form.set('type', 'feedback');
      form.set(
        'file',
        new Blob([attachment(settings.attachmentBytes)], { type: 'application/pdf' }),
        'report.pdf',
      );
      await call('POST /api/auth/support/tickets', 'POST', '/api/auth/support/tickets', form);
    },
  },
];

/** A PDF as the portal tells files apart (by their first bytes), filled to `bytes`. */
function attachment(bytes: number): Uint8Array<ArrayBuffer> {
  const file = new Uint8Array(new ArrayBuffer(bytes));
  file.set(new TextEncoder().encode('%PDF-1.4\n'));
  for (let i = 9; i < bytes; i++) file[i] = (i * 31) & 0xff;
  return file;
}

/**
 * The mix as one cycle of 100 actions in which each appears as often as its weight, spread evenly
 * (smooth weighted round-robin): every stretch of a session holds the mix's proportions, so a short
 * run sees the rare actions too, where random draws would leave some out.
 */
export function mixCycle(actions: readonly { weight: number }[]): number[] {
  const total = actions.reduce((sum, a) => sum + a.weight, 0);
  const current = actions.map(() => 0);
  return Array.from({ length: total }, () => {
    actions.forEach((a, i) => (current[i]! += a.weight));
    const chosen = current.indexOf(Math.max(...current));
    current[chosen]! -= total;
    return chosen;
  });
}

const CYCLE = mixCycle(MIX);

/** The statuses each route answers when it worked. */
const EXPECTED: Partial<Record<Route, number>> = {
  'POST /api/admin/payment/order': 201,
  'POST /api/auth/support/tickets': 201,
};

/**
 * One simulated admin of one organization, until `signal` aborts: sessions of a sign-in (password,
 * then a code of the pool's step), `sessionActions` of the mix with a think time before each, and a
 * sign-out. A failed request ends its session (the next one signs in again), as a person would reload.
 */
export async function runAdmin(options: {
  dispatcher: Dispatcher;
  origin: string;
  accounts: string[];
  settings: AdminSettings;
  record: Recorder;
  signal: AbortSignal;
  /** Wait before the first sign-in, so admins joining a step do not all arrive at once. */
  startAfterMs: number;
}): Promise<void> {
  const { settings, record, signal } = options;
  const session = new BrowserSession(options.dispatcher, options.origin);
  const pool = new AccountPool(options.accounts.map((identifier) => ({ identifier, lastStep: -1 })));
  const totp = new TOTP({
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(settings.totpSecret),
  });
  const pick = (n: number) => Math.floor(Math.random() * n);
  let turn = pick(CYCLE.length);
  const call: Visit['call'] = async (route, method, path, body) => {
    const done = record(route);
    let answer: Answer;
    try {
      answer = await session.send(method, path, body);
    } catch (error) {
      done(false, error instanceof Error ? error.message : String(error));
      throw new ActionFailed(route);
    }
    const ok = answer.status === (EXPECTED[route] ?? 200);
    done(ok, ok ? undefined : `${answer.status}`);
    if (!ok) throw new ActionFailed(`${route} answered ${answer.status}`);
    return answer;
  };
  const visit: Visit = { call, settings, pick };
  const think = () => sleep(settings.thinkMs * (0.5 + Math.random()), undefined, { signal });

  try {
    await sleep(options.startAfterMs, undefined, { signal });
    while (!signal.aborted) {
      try {
        await signIn(visit, pool, totp, signal);
        for (let i = 0; i < settings.sessionActions; i++) {
          await think();
          await MIX[CYCLE[turn]!]!.run(visit);
          turn = (turn + 1) % CYCLE.length;
        }
        await think();
        await call('POST /api/auth/auth-session/logout', 'POST', '/api/auth/auth-session/logout');
        // The browser's device cookie stays, so the next sign-in comes from a known device.
        session.forgetSession(DEVICE_COOKIE);
      } catch (error) {
        if (!(error instanceof ActionFailed)) throw error;
        session.forgetSession(DEVICE_COOKIE);
        await think();
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

/**
 * Both steps of a sign-in. The pool hands out an account whose code for the step has not been used;
 * when both accounts have had the current and the next step, the admin waits for the next step, as
 * a person waits for the next code.
 */
async function signIn(visit: Visit, pool: AccountPool, totp: TOTP, signal: AbortSignal) {
  let taken: ReturnType<AccountPool['take']> | undefined;
  while (!taken) {
    try {
      taken = pool.take(Date.now());
    } catch {
      const nextStepMs = (stepAt(Date.now()) + 1) * TOTP_PERIOD_SECONDS * 1000;
      await sleep(nextStepMs - Date.now() + 10, undefined, { signal });
    }
  }
  const first = dataOf<{ challenge?: string }>(
    await visit.call('POST /api/auth/auth-session/login', 'POST', '/api/auth/auth-session/login', {
      identifier: taken.account.identifier,
      password: visit.settings.password,
    }),
  );
  if (!first.challenge) throw new ActionFailed('no second-factor challenge');
  await visit.call('POST /api/auth/auth-session/two-factor', 'POST', '/api/auth/auth-session/two-factor', {
    challenge: first.challenge,
    code: totp.generate({ timestamp: taken.step * TOTP_PERIOD_SECONDS * 1000 }),
  });
}

/**
 * The organization's interview bot until `signal` aborts: one debit of a credit every `1 / rate`
 * seconds through its API key, on schedule whether or not the last one was answered (interviews do
 * not wait for the portal). Each time runs from the debit's scheduled start, so a portal falling
 * behind shows in the figures instead of slowing the bot down.
 */
export async function runBot(options: {
  dispatcher: Dispatcher;
  apiKey: string;
  /** Debits per second. */
  rate: number;
  /** Unique to this bot in the run: the debits' references. */
  name: string;
  record: (route: Route, scheduledAt: number) => (ok: boolean, failure?: string) => void;
  signal: AbortSignal;
  startAfterMs: number;
}): Promise<void> {
  const { signal } = options;
  const intervalMs = 1000 / options.rate;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now() + options.startAfterMs;
  try {
    for (let n = 0; !signal.aborted; n++) {
      const scheduledAt = started + n * intervalMs;
      await sleep(Math.max(0, scheduledAt - performance.now()), undefined, { signal });
      const done = options.record('POST /api/v1/credits/use', scheduledAt);
      const debit = options.dispatcher
        .request({
          method: 'POST',
          path: '/api/v1/credits/use',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ credits: 1, reference: `${options.name}-${n}` }),
        })
        .then(async (response) => {
          await response.body.dump();
          const ok = response.statusCode === 200;
          done(ok, ok ? undefined : `${response.statusCode}`);
        })
        .catch((error: unknown) => done(false, error instanceof Error ? error.message : String(error)));
      inFlight.add(debit);
      void debit.finally(() => inFlight.delete(debit));
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  await Promise.all(inFlight);
}
