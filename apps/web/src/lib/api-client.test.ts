import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@portal/shared';
import { api, ApiError, onEnrolmentRequired, onRefreshStateChange } from './api-client';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('api client', () => {
  let sessionValid: boolean;
  let refreshCalls: number;
  const seenCsrf: (string | null)[] = [];

  beforeEach(() => {
    sessionValid = false;
    refreshCalls = 0;
    seenCsrf.length = 0;
    document.cookie = 'XSRF-TOKEN=old-token; path=/';
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const headers = new Headers(init.headers);
        if (url.endsWith('/auth/auth-session/refresh-token')) {
          refreshCalls += 1;
          await new Promise((r) => setTimeout(r, 20));
          sessionValid = true;
          document.cookie = 'XSRF-TOKEN=new-token; path=/';
          return json(200, { success: true, data: {} });
        }
        seenCsrf.push(headers.get('X-CSRF-Token'));
        return sessionValid
          ? json(200, { success: true, data: url })
          : json(401, { success: false, message: 'Please sign in to continue.' });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('meets an expired session with exactly one refresh for 20 concurrent requests, and all 20 succeed', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? api.get<{ data: string }>(`/items/${i}`) : api.post<{ data: string }>(`/items/${i}`, { i }),
      ),
    );
    expect(refreshCalls).toBe(1);
    expect(results.map((r) => r.data)).toEqual(Array.from({ length: 20 }, (_, i) => `/api/items/${i}`));
    // Replays carry the CSRF token issued by the refresh.
    expect(seenCsrf.slice(20)).toEqual(Array(20).fill('new-token'));
  });

  it('reports a failed refresh once and rejects every waiting request with 401', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.endsWith('/refresh-token')) {
          refreshCalls += 1;
          return json(401, { success: false, message: 'expired' });
        }
        return json(401, { success: false, message: 'Please sign in to continue.' });
      }),
    );
    const states: string[] = [];
    const stop = onRefreshStateChange((s) => states.push(s));
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => api.get('/x')));
    stop();
    expect(refreshCalls).toBe(1);
    expect(states).toEqual(['started', 'failed']);
    for (const o of outcomes) {
      expect(o.status).toBe('rejected');
      expect((o as PromiseRejectedResult).reason).toMatchObject({ status: 401 });
    }
  });

  it('keeps the session when the refresh gets no answer, and rejects the waiting requests as unanswered', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.endsWith('/refresh-token')) {
          refreshCalls += 1;
          throw new TypeError('Failed to fetch');
        }
        return json(401, { success: false, message: 'Please sign in to continue.' });
      }),
    );
    const states: string[] = [];
    const stop = onRefreshStateChange((s) => states.push(s));
    const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => api.get('/x')));
    stop();
    expect(refreshCalls).toBe(1);
    expect(states).toEqual(['started', 'unanswered']);
    for (const o of outcomes) {
      expect((o as PromiseRejectedResult).reason).toMatchObject({
        status: null,
        message: messages.password.network,
      });
    }
  });

  it('does not refresh for a failed sign-in, at either step', async () => {
    await expect(api.post('/auth/auth-session/login', {})).rejects.toBeInstanceOf(ApiError);
    await expect(api.post('/auth/auth-session/two-factor', {})).rejects.toMatchObject({
      status: 401,
      message: 'Please sign in to continue.',
    });
    expect(refreshCalls).toBe(0);
  });

  it('tells its listeners when the server refuses a call until two-factor sign-in is set up', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('/enrol')
          ? json(403, {
              success: false,
              message: messages.twoFactor.enrolmentRequired,
            })
          : json(403, { success: false, message: messages.http.forbidden }),
      ),
    );
    const heard = vi.fn();
    const stop = onEnrolmentRequired(heard);
    await expect(api.get('/other')).rejects.toMatchObject({ status: 403, message: messages.http.forbidden });
    expect(heard).not.toHaveBeenCalled();
    await expect(api.get('/enrol')).rejects.toMatchObject({
      status: 403,
      message: messages.twoFactor.enrolmentRequired,
    });
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
    await expect(api.get('/enrol')).rejects.toBeInstanceOf(ApiError);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('turns the server error body into the message (the order extractErrorMessage uses)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(400, { success: false, errors: { name: ['Role name is required'] } })),
    );
    await expect(api.get('/x')).rejects.toMatchObject({ status: 400, message: 'Role name is required' });
  });

  it('reports a request with no answer as status null', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(api.get('/x')).rejects.toMatchObject({
      status: null,
      message: 'Network error. Please check your connection.',
    });
  });
});
