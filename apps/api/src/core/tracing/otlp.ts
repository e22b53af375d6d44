import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { Env } from '../../env.js';
import { startTracing, type Tracing } from './start-tracing.js';

/**
 * Tracing as configured: spans exported over OTLP (protobuf over HTTP) to OTEL_EXPORTER_OTLP_ENDPOINT,
 * or undefined, and then nothing is loaded, patched or recorded.
 */
export function startConfiguredTracing(env: Pick<Env, 'OTEL_EXPORTER_OTLP_ENDPOINT'>): Tracing | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint === undefined) return undefined;
  // As the OTLP specification says of this variable: the signal's path is appended to it.
  const url = `${endpoint.replace(/\/+$/, '')}/v1/traces`;
  return startTracing({ exporter: new OTLPTraceExporter({ url }), batch: true });
}
