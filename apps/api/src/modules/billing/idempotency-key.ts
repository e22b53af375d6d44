import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER, messages } from '@portal/shared';
import { badRequest } from '../../lib/errors.js';
import { sha256Hex } from '../../lib/tokens.js';

/** The Idempotency-Key header as routes read it, and what a key is bound to (README.md, "Idempotency"). */

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header: printable ASCII, 1 to 255 characters. */
export function readIdempotencyKey(request: FastifyRequest, required: true): string;
export function readIdempotencyKey(request: FastifyRequest, required: boolean): string | null;
export function readIdempotencyKey(request: FastifyRequest, required: boolean): string | null {
  const raw = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') {
    if (required) throw badRequest(messages.idempotency.keyRequired);
    return null;
  }
  if (!KEY_PATTERN.test(value)) throw badRequest(messages.idempotency.keyRequired);
  return value;
}

/** JSON with object keys sorted, so the same body always hashes the same. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What a key is bound to: the route and the validated body. */
export function hashRequest(route: string, payload: unknown): string {
  return sha256Hex(stableStringify({ route, payload }));
}
