import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';

/** The key of a job's data that carries the context of the trace that queued it (W3C traceparent). */
const TRACE_FIELD = '_trace';

/**
 * `data` with the active trace's context added, so the job continues that trace. Unchanged when no
 * span is active: tracing off, or queued outside a request (schedules).
 */
export function withTraceContext(data: object): object {
  if (!trace.getActiveSpan() || Array.isArray(data)) return data;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return { ...data, [TRACE_FIELD]: carrier };
}

/**
 * Runs a job's handler with its data as it was queued, in a span that is a child of the trace that
 * queued it; a job queued outside a trace runs as it is, with no span.
 */
export async function inJobSpan<R>(
  queue: string,
  jobId: string,
  data: unknown,
  run: (data: unknown) => Promise<R>,
): Promise<R> {
  if (typeof data !== 'object' || data === null || !(TRACE_FIELD in data)) return run(data);
  const { [TRACE_FIELD]: carrier, ...rest } = data as Record<string, unknown>;
  const parent = propagation.extract(ROOT_CONTEXT, carrier as Record<string, string>);
  const attributes = {
    'messaging.system': 'pg-boss',
    'messaging.destination.name': queue,
    'messaging.message.id': jobId,
  };
  return trace
    .getTracer('portal-jobs')
    .startActiveSpan(`job ${queue}`, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
      try {
        return await run(rest);
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
}
