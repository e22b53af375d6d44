import { FormData, parseCookie, type Dispatcher } from 'undici';
import { CSRF_COOKIE, CSRF_HEADER } from '@portal/shared';

/** What a request came to: its status, and its body read in full (JSON parsed when it is JSON). */
export interface Answer {
  status: number;
  contentType: string;
  bytes: number;
  json: unknown;
}

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * A browser's side of one admin's visit, on a connection of its own (`dispatcher`): it keeps the
 * cookies the portal sets (by name and path, dropping the ones it expires) and sends the CSRF header
 * and the Origin on writes, as the web app's API client and a browser do. Cookie parsing is undici's.
 */
export class BrowserSession {
  private readonly jar = new Map<string, StoredCookie>();

  constructor(
    private readonly dispatcher: Dispatcher,
    /** The portal's public origin: the Origin a browser on its pages sends. */
    private readonly origin: string,
  ) {}

  /** Forgets the session (a sign-out), keeping the device cookie as a browser keeps it. */
  forgetSession(keep: string): void {
    for (const name of [...this.jar.keys()]) if (name !== keep) this.jar.delete(name);
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name)?.value;
  }

  private cookieHeader(path: string): string {
    return [...this.jar]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private absorb(setCookie: string | string[] | undefined) {
    for (const line of [setCookie ?? []].flat()) {
      const parsed = parseCookie(line);
      if (!parsed) continue;
      const expires = parsed.expires === undefined ? undefined : new Date(parsed.expires).getTime();
      if (
        parsed.value === '' ||
        (parsed.maxAge !== undefined && parsed.maxAge <= 0) ||
        (expires !== undefined && expires <= Date.now())
      )
        this.jar.delete(parsed.name);
      else this.jar.set(parsed.name, { value: parsed.value, path: parsed.path ?? '/' });
    }
  }

  /** `body`: JSON, or a multipart form (undici writes its boundary and content type). */
  async send(method: 'GET' | 'POST', path: string, body?: object | FormData): Promise<Answer> {
    const headers: Record<string, string> = {};
    const cookie = this.cookieHeader(path.split('?')[0]!);
    if (cookie) headers.cookie = cookie;
    let payload: string | FormData | undefined;
    if (method !== 'GET') {
      headers.origin = this.origin;
      const csrf = this.cookie(CSRF_COOKIE);
      if (csrf) headers[CSRF_HEADER.toLowerCase()] = decodeURIComponent(csrf);
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    }
    const response = await this.dispatcher.request({ method, path, headers, body: payload });
    this.absorb(response.headers['set-cookie']);
    const contentType = String(response.headers['content-type'] ?? '');
    const bytes = Buffer.from(await response.body.arrayBuffer());
    return {
      status: response.statusCode,
      contentType,
      bytes: bytes.length,
      json: contentType.startsWith('application/json') ? JSON.parse(bytes.toString('utf8')) : null,
    };
  }
}
