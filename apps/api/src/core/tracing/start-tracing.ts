import { createRequire } from 'node:module';
import { context, propagation, trace } from '@opentelemetry/api';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import type { FastifyPluginCallback } from 'fastify';

const SERVICE_NAME = 'interview-credits-portal';

/** Tracing while it runs: the plugin buildApp registers first, and how to stop it. */
export interface Tracing {
  /** @fastify/otel's plugin: a span per request, route handler and hook. */
  fastifyPlugin(): FastifyPluginCallback;
  /** Exports what is still buffered, unpatches http and pg, and clears the global provider. */
  shutdown(): Promise<void>;
}

/**
 * Starts the tracer provider and the http, pg and Fastify instrumentations. `batch` buffers spans
 * for an exporter over the network; without it each span is exported as it ends (tests).
 */
export function startTracing(options: { exporter: SpanExporter; batch: boolean }): Tracing {
  const processor = options.batch
    ? new BatchSpanProcessor(options.exporter)
    : new SimpleSpanProcessor(options.exporter);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': SERVICE_NAME }),
    spanProcessors: [processor],
  });
  // The AsyncLocalStorage context manager and the W3C traceparent propagator.
  provider.register();
  const fastify = new FastifyOtelInstrumentation();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation(),
      // Only statements run for a request or a job: pg-boss polls every few seconds, each a trace of its own otherwise.
      new PgInstrumentation({ requireParentSpan: true }),
      fastify,
    ],
  });
  // Both instrumentations patch the modules' prototypes in place when next required, so a module
  // loaded before this (a test worker that shares its modules between files) is covered too.
  const require = createRequire(import.meta.url);
  require('node:http');
  require('node:https');
  require('pg');
  return {
    fastifyPlugin: () => fastify.plugin() as FastifyPluginCallback,
    async shutdown() {
      await provider.shutdown();
      unregister();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
