import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_LEGACY_COOKIE, messages } from '@portal/shared';
import { AppError } from '../lib/errors.js';
import { hmacSha256, safeEqual } from '../lib/tokens.js';

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';
/** A browser's long-lived random id, sent only to the sign-in routes (new-device emails). */
export const DEVICE_COOKIE = 'device_id';
export const DEVICE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const DEVICE_COOKIE_PATH = '/api/auth/auth-session';
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/** The CSRF token is an HMAC of the session family: stable across refreshes, dead with the family. */
export function csrfTokenFor(secret: string, familyId: string): string {
  return hmacSha256(secret, `csrf:${familyId}`, 'base64url');
}

/**
 * The double-submit check of every state-changing request with a session (the access plugin) and of
 * the refresh (whose access cookie has usually expired): the X-CSRF-Token header must be the
 * family's token.
 */
export function checkCsrfToken(secret: string, familyId: string, sent: unknown): void {
  if (typeof sent !== 'string' || !safeEqual(sent, csrfTokenFor(secret, familyId))) {
    throw new AppError(403, messages.http.csrf, 'CSRF');
  }
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  csrfToken: string;
  accessMaxAgeMs: number;
  refreshMaxAgeMs: number;
}

export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, t: IssuedTokens) {
  // From the configured public address, not from what the request says its scheme was.
  const base = { path: '/', sameSite: 'lax' as const, secure: request.server.deps.env.publicIsHttps };
  reply
    .setCookie(ACCESS_COOKIE, t.accessToken, {
      ...base,
      httpOnly: true,
      maxAge: Math.floor(t.accessMaxAgeMs / 1000),
    })
    .setCookie(REFRESH_COOKIE, t.refreshToken, {
      ...base,
      path: '/api',
      httpOnly: true,
      maxAge: Math.floor(t.refreshMaxAgeMs / 1000),
    })
    // Readable by the web app, which echoes it in X-CSRF-Token.
    .setCookie(CSRF_COOKIE, t.csrfToken, {
      ...base,
      httpOnly: false,
      maxAge: Math.floor(t.refreshMaxAgeMs / 1000),
    });
}

export function clearSessionCookies(reply: FastifyReply) {
  reply
    .clearCookie(ACCESS_COOKIE, { path: '/' })
    .clearCookie(REFRESH_COOKIE, { path: '/api' })
    .clearCookie(CSRF_COOKIE, { path: '/' })
    .clearCookie(CSRF_LEGACY_COOKIE, { path: '/' });
}

export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, deviceToken: string) {
  reply.setCookie(DEVICE_COOKIE, deviceToken, {
    path: DEVICE_COOKIE_PATH,
    sameSite: 'lax',
    secure: request.server.deps.env.publicIsHttps,
    httpOnly: true,
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
}
