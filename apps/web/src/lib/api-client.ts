import { API_BASE_PATH, API_TIMEOUT_MS, CSRF_COOKIE, CSRF_HEADER, messages } from '@portal/shared';
import { readCookie } from './cookies';
import { messageFromBody } from './error-message';
import { saveFile } from './save-file';

/** A failed call. `status` is null when no response arrived (timeout, network). */
export class ApiError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get fieldErrors(): Record<string, string[]> {
    const errors = (this.body as { errors?: unknown } | null)?.errors;
    return errors && typeof errors === 'object' && !Array.isArray(errors)
      ? (errors as Record<string, string[]>)
      : {};
  }
}

type Params = Record<string, string | number | boolean | null | undefined>;
interface RequestOptions {
  params?: Params;
  headers?: Record<string, string>;
  /** The error's message when a refusal's body carries none (default: messages.common.unexpected). */
  fallbackMessage?: string;
}

const REFRESH_PATH = '/auth/auth-session/refresh-token';
/** Sign-in (both steps) and refresh answer 401 for their own reasons; they never trigger a refresh. */
const NO_REFRESH_PATHS = [
  '/auth/auth-session/login',
  '/auth/auth-session/two-factor',
  REFRESH_PATH,
  '/refresh',
];

const enrolmentListeners = new Set<() => void>();

/** Auth state listens here: the server refuses everything until two-factor sign-in is set up. */
export function onEnrolmentRequired(listener: () => void): () => void {
  enrolmentListeners.add(listener);
  return () => enrolmentListeners.delete(listener);
}

/**
 * The 403 every route answers while the user's role requires two-factor sign-in and they have not
 * set it up: known by its message, as answers carry `{success, message, errors}` and no code.
 */
function isEnrolmentRefusal(status: number, body: unknown): boolean {
  return status === 403 && messageFromBody(body) === messages.twoFactor.enrolmentRequired;
}

/**
 * `failed`: the server refused the refresh, so the session is over. `unanswered`: no answer came
 * (network, timeout, or the page unloading mid-refresh); the session may well be alive.
 */
type RefreshListener = (state: 'started' | 'succeeded' | 'failed' | 'unanswered') => void;
const refreshListeners = new Set<RefreshListener>();
let refreshInFlight: Promise<void> | null = null;

/** Auth state listens here: a failed refresh means the session is over. */
export function onRefreshStateChange(listener: RefreshListener): () => void {
  refreshListeners.add(listener);
  return () => refreshListeners.delete(listener);
}

export function isRefreshing(): boolean {
  return refreshInFlight !== null;
}

function buildUrl(path: string, params?: Params): string {
  const url = `${API_BASE_PATH}${path}`;
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${url}?${query}` : url;
}

async function send(method: string, path: string, body: unknown, options: RequestOptions): Promise<Response> {
  const headers = new Headers(options.headers);
  // Read per request: a refresh may have replaced the token since the request was first made.
  const csrf = readCookie(CSRF_COOKIE);
  if (csrf) headers.set(CSRF_HEADER, csrf);
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }
  try {
    return await fetch(buildUrl(path, options.params), {
      method,
      headers,
      body: payload,
      credentials: 'include',
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
  } catch (error) {
    throw new ApiError(
      null,
      error instanceof Error && error.name === 'TimeoutError'
        ? messages.login.noResponse
        : messages.password.network,
    );
  }
}

async function parse(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * One refresh for any number of concurrent 401s: the first starts it, the rest wait for it and are
 * then replayed (with the CSRF token read afresh).
 */
export function refreshSession(): Promise<void> {
  if (!refreshInFlight) {
    refreshListeners.forEach((l) => l('started'));
    refreshInFlight = send('POST', REFRESH_PATH, undefined, {})
      .then(async (response) => {
        if (!response.ok)
          throw new ApiError(response.status, messages.login.sessionExpired, await parse(response));
        refreshListeners.forEach((l) => l('succeeded'));
      })
      .catch((error: unknown) => {
        const unanswered = error instanceof ApiError && error.status === null;
        refreshListeners.forEach((l) => l(unanswered ? 'unanswered' : 'failed'));
        throw error;
      })
      .finally(() => {
        refreshInFlight = null;
      });
  }
  return refreshInFlight;
}

/**
 * Sends a request; a 401 (outside sign-in and refresh) refreshes the session once and replays it.
 * Every call of the API goes through here: JSON, downloads and sign-in alike. Throws ApiError for an
 * answer that is not ok, or none.
 */
async function respond(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
): Promise<Response> {
  let response = await send(method, path, body, options);
  if (response.status === 401 && !NO_REFRESH_PATHS.includes(path)) {
    try {
      await refreshSession();
    } catch (error) {
      // A refresh that got no answer says nothing about the session: the request fails as unanswered.
      if (error instanceof ApiError && error.status === null) throw error;
      throw new ApiError(401, messages.login.sessionExpired, await parse(response));
    }
    response = await send(method, path, body, options);
  }
  if (!response.ok) {
    const parsed = await parse(response);
    if (isEnrolmentRefusal(response.status, parsed)) enrolmentListeners.forEach((l) => l());
    const fallback = options.fallbackMessage ?? messages.common.unexpected;
    throw new ApiError(response.status, messageFromBody(parsed) ?? fallback, parsed);
  }
  return response;
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  return (await parse(await respond(method, path, body, options))) as T;
}

function filenameFrom(response: Response, fallback: string): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),

  /** The answer's body with its headers, for the few calls that read a header (sign-in). */
  async withHeaders<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}) {
    const response = await respond(method, path, body, options);
    return { body: (await parse(response)) as T, headers: response.headers };
  },

  /** Downloads a file the server generates (exports). */
  async download(path: string, params: Params, fallbackFilename: string): Promise<void> {
    const response = await respond('GET', path, undefined, { params });
    saveFile(await response.blob(), filenameFrom(response, fallbackFilename));
  },
};
