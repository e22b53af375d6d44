// server.ts imports this first. ESM evaluates a module's imports in order, and this one synchronously,
// so the http and pg instrumentations are on before Fastify, pg and pg-boss load (docs/decisions/035).
import { loadEnv } from '../../env.js';
import { startConfiguredTracing } from './otlp.js';
import type { Tracing } from './start-tracing.js';

function fromEnv(): Tracing | undefined {
  try {
    return startConfiguredTracing(loadEnv());
  } catch {
    // An invalid configuration: server.ts reads it again and stops with the message.
    return undefined;
  }
}

export const tracing = fromEnv();
