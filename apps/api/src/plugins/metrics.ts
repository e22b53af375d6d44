import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';
import { observeDatabase, observeSharedState, type Metrics } from '../core/metrics/index.js';

/** The route label of a request no route matched (404s, probes): one series, whatever the path. */
export const UNMATCHED_ROUTE = 'unmatched';

export interface MetricsPluginOptions {
  metrics: Metrics;
  database: Database;
}

/**
 * Times every answer by its route's template (`/api/auth/users/:id`, never the id, an organization
 * or a user), from Fastify's own start time, so it adds one hook and no per-request timer. Registered
 * before every other plugin, so it also sees the answers of the not-found and error handlers.
 */
async function metricsPlugin(app: FastifyInstance, options: MetricsPluginOptions) {
  const { metrics, database } = options;
  const { httpDuration } = metrics;
  app.addHook('onResponse', (request, reply, done) => {
    httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1_000,
    );
    done();
  });
  observeSharedState(metrics.registry, { db: database.db, log: app.log });
  const stopTiming = observeDatabase(metrics, database);
  app.addHook('onClose', async () => stopTiming());
}

export default fp(metricsPlugin, { name: 'metrics' });
