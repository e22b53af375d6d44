export { inJobSpan, withTraceContext } from './job-trace.js';
export { traceLogFields } from './log-fields.js';
export { startConfiguredTracing } from './otlp.js';
export { startTracing, type Tracing } from './start-tracing.js';
