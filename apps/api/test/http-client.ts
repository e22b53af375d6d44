import { createServer } from 'node:net';
import { CSRF_COOKIE } from '@portal/shared';

/** A TCP port free on loopback now, for a portal process to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  json<T = { data?: Record<string, unknown> }>(): T;
}

/**
 * A browser's side of a real portal process on loopback: keeps its cookies and sends the CSRF header
 * on writes. `cookies` may be given, to carry on a session signed in elsewhere.
 */
export class HttpClient {
  constructor(
    private readonly base: string,
    readonly cookies = new Map<string, string>(),
  ) {}

  /** `body` goes as JSON, or as it is when bytes (a multipart form, with its `extraHeaders`). */
  async send(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    const raw = body instanceof Uint8Array;
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (body !== undefined && !raw) headers['content-type'] = 'application/json';
    const csrf = this.cookies.get(CSRF_COOKIE);
    if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
    Object.assign(headers, extraHeaders);
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      body: bytes,
      json: <T>() => JSON.parse(bytes.toString('utf8')) as T,
    };
  }

  get = (path: string) => this.send('GET', path);
  post = (path: string, body?: unknown, extraHeaders?: Record<string, string>) =>
    this.send('POST', path, body, extraHeaders);
}
