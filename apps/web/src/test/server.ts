import { File as NodeFile } from 'node:buffer';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  API_BASE_PATH,
  messages,
  sessionUserSchema,
  type ApiSuccess,
  type SessionUser,
} from '@portal/shared';
import type { PortalConfig } from '../lib/portal-config';
import { ok, refusal } from './responses';

/**
 * The API for the web's render tests: one MSW server for the whole project, started by the setup
 * file, which fails a test on any request no handler answers and resets the handlers after each
 * test. Tests add their own with `server.use(http.get('/api/...', ...))`.
 */

/** Whom `me` answers: the session cookie's user, or null for no session (401, as the API does). */
let sessionUser: SessionUser | null = null;

/** Starts (or, with null, ends) the session the API knows: `me` answers this user from then on. */
export function setSession(user: SessionUser | null): void {
  sessionUser = user;
}

/** The portal's public settings (GET /config) with payments through `paymentProvider`. */
function portalConfig(paymentProvider: PortalConfig['paymentProvider']): PortalConfig {
  return {
    productUrl: 'https://product.example.test',
    chatbotUrl: 'https://bot.example.test',
    paymentProvider,
    razorpayKeyId: paymentProvider === 'razorpay' ? 'rzp_live_x' : null,
  };
}

/**
 * GET /config answering payments through `paymentProvider` ('sandbox': every screen shows "Test
 * mode"). The API's schema of it is its own, not in the shared package: PortalConfig types it here.
 */
export function configHandler(paymentProvider: PortalConfig['paymentProvider']) {
  return http.get('/api/config', () =>
    HttpResponse.json({
      success: true,
      data: portalConfig(paymentProvider),
    } satisfies ApiSuccess<PortalConfig>),
  );
}

/** What every screen may ask whoever is signed in: the session's user and the public settings. */
const defaultHandlers = [
  http.get('/api/auth/auth-session/me', () =>
    sessionUser ? ok(sessionUserSchema, sessionUser) : refusal(401, messages.login.sessionExpired),
  ),
  http.post('/api/auth/auth-session/refresh-token', () =>
    sessionUser ? ok(sessionUserSchema, sessionUser) : refusal(401, messages.login.sessionExpired),
  ),
  configHandler('razorpay'),
];

/** A request the web app sent, as a handler saw it. */
export interface SentRequest {
  method: string;
  /** Below the API's base path, as the web's API client names it: '/auth/users'. */
  path: string;
  query: Record<string, string>;
  headers: Headers;
  /**
   * The body: parsed JSON, FormData, text, or undefined when it has none. Read as the request
   * starts, so it lands a moment after `method` and `path`: assert on it once the answer has shown.
   */
  body: unknown;
}

const sent: SentRequest[] = [];

/** Every request sent in this test, oldest first; with `method` and `path`, only those. */
export function sentRequests(method?: string, path?: string | RegExp): SentRequest[] {
  return sent.filter(
    (r) =>
      (method === undefined || r.method === method) &&
      (path === undefined || (typeof path === 'string' ? r.path === path : path.test(r.path))),
  );
}

/** The latest request of `method` to `path`; fails the test when there is none. */
export function lastRequest(method: string, path: string | RegExp): SentRequest {
  const request = sentRequests(method, path).at(-1);
  if (!request) throw new Error(`no ${method} ${String(path)} was sent`);
  return request;
}

async function bodyOf(request: Request): Promise<unknown> {
  const type = request.headers.get('Content-Type') ?? '';
  if (type.startsWith('multipart/form-data')) return request.formData();
  const text = await request.text();
  if (!text) return undefined;
  return type.includes('json') ? JSON.parse(text) : text;
}

export const server = setupServer(...defaultHandlers);

server.events.on('request:start', ({ request }) => {
  const url = new URL(request.url);
  const entry: SentRequest = {
    method: request.method,
    path: url.pathname.startsWith(API_BASE_PATH) ? url.pathname.slice(API_BASE_PATH.length) : url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: request.headers,
    body: undefined,
  };
  sent.push(entry);
  // Cloned now, before a handler reads the body.
  void bodyOf(request.clone()).then((body) => (entry.body = body));
});

/** Between tests: the default handlers, no session, no requests. */
export function resetServer(): void {
  server.resetHandlers();
  sessionUser = null;
  sent.length = 0;
}

function bytesOf(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/**
 * Vitest's jsdom environment hands a FormData body to Node's fetch with each file renamed 'blob'
 * (vitest-dev/vitest#9260): this passes Node's fetch a FormData of Node files, names kept, as a
 * browser sends them. Installed over MSW's fetch, once it listens.
 */
export function keepUploadNames(): () => void {
  const inner = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    if (!(init?.body instanceof FormData)) return inner(input, init);
    // Node's FormData, which the jsdom environment does not expose: the one a Node Response parses to.
    const NodeFormData = (await new Response(new URLSearchParams()).formData())
      .constructor as typeof FormData;
    const body = new NodeFormData();
    for (const [name, value] of init.body) {
      if (typeof value === 'string') body.append(name, value);
      else
        body.append(
          name,
          new NodeFile([new Uint8Array(await bytesOf(value))], value.name, { type: value.type }) as File,
        );
    }
    return inner(input, { ...init, body });
  };
  return () => {
    globalThis.fetch = inner;
  };
}
