import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import underPressure from '@fastify/under-pressure';
import { messages } from '@portal/shared';

/** How soon a client refused as overloaded is asked to try again. */
const RETRY_AFTER_SECONDS = 10;

/**
 * Overload: while the event loop lags behind by more than `maxEventLoopDelayMs` on average (sampled each
 * second), every request but the health probes is answered 503 with Retry-After at once, instead of
 * every request slowing down together. 0 turns it off (the tests' default).
 */
async function overloadPlugin(app: FastifyInstance, options: { maxEventLoopDelayMs: number }) {
  if (options.maxEventLoopDelayMs <= 0) return;
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    retryAfter: RETRY_AFTER_SECONDS,
    // Returning without an answer lets the request through: the probes say how the process is.
    pressureHandler: (request, reply) => {
      if (request.url.startsWith('/api/health')) return;
      void reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ success: false, message: messages.http.busy, errors: {} });
    },
  });
}

export default fp(overloadPlugin, { name: 'overload' });
