import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@portal/shared';
import { badRequest } from '../lib/errors.js';

/** PostgreSQL's text cannot hold U+0000, and a lone surrogate is not text at all. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}

/**
 * The path (`a.0.b`) of the first string, key or value, in `value` that `isStorableText` refuses;
 * null when there is none. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function unstorableTextPath(value: unknown): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    if (typeof item.value === 'string') {
      if (!isStorableText(item.value)) return item.path;
    } else if (item.value !== null && typeof item.value === 'object') {
      for (const [key, child] of Object.entries(item.value)) {
        const path = item.path ? `${item.path}.${key}` : key;
        if (!isStorableText(key)) return path;
        pending.push({ value: child, path });
      }
    }
  }
  return null;
}

/** Answers 400 for such text in one field; `where` names the part when the text is not in a field. */
export function refuseUnstorableText(value: unknown, where: string): void {
  const path = unstorableTextPath(value);
  if (path === null) return;
  throw badRequest(messages.http.unstorableText, { [path || where]: [messages.http.unstorableText] });
}

/**
 * Refuses, with one 400 for every route, any body field, query parameter or path parameter holding
 * text the database cannot store, before validation reads it or a statement carries it (a NUL used to
 * answer 500 and log the statement). Multipart fields are checked as they are read (plugins/multipart.ts).
 */
async function textGuard(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      refuseUnstorableText(request.params, 'params');
      refuseUnstorableText(request.query, 'query');
      refuseUnstorableText(request.body, 'body');
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}

export default fp(textGuard, { name: 'text-guard' });
