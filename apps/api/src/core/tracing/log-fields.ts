import { trace } from '@opentelemetry/api';

/**
 * pino's `mixin` while tracing is on: each log line written inside a span names its trace and span,
 * so a request's lines can be found from its trace and the other way round.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
