import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteOptions,
} from 'fastify';
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

/** Methods whose requests carry no body (Fastify parses none for GET, HEAD and OPTIONS). */
const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a route can be handed text from the request: a body, a path parameter, or a query string it
 * declares (routes read their query through their schema, STYLE.md §3). A GET of a fixed path with no
 * query schema reads none of it, and gets no hook.
 */
function takesText(route: RouteOptions): boolean {
  const methods = [route.method].flat();
  const schema = route.schema as { querystring?: unknown } | undefined;
  return (
    methods.some((method) => !BODILESS.has(method)) ||
    /[:*]/.test(route.url) ||
    schema?.querystring !== undefined
  );
}

function refuseUnstorableRequest(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
) {
  try {
    refuseUnstorableText(request.params, 'params');
    refuseUnstorableText(request.query, 'query');
    refuseUnstorableText(request.body, 'body');
    done();
  } catch (error) {
    done(error as Error);
  }
}

/**
 * Refuses, with one 400 for every route, any body field, query parameter or path parameter holding
 * text the database cannot store, before validation reads it or a statement carries it (a NUL used to
 * answer 500 and log the statement). Multipart fields are checked as they are read (plugins/multipart.ts).
 * The check is the own preValidation hook of each route `takesText` names, added at `onRoute`: as one
 * global hook it also ran on every request that can hand a route no text (docs/decisions/037).
 */
async function textGuard(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!takesText(route)) return;
    // First of the route's own hooks, as the global hook it replaces was; a new array, since Fastify
    // copies a GET's options for its HEAD route, which comes back through here.
    route.preValidation = [refuseUnstorableRequest, ...[route.preValidation ?? []].flat()];
  });
}

export default fp(textGuard, { name: 'text-guard' });
