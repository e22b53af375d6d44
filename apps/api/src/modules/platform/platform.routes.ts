import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successSchema } from '@portal/shared';
import { access, visitorOf } from '../../plugins/access.js';
import { ServiceBusyError } from '../../lib/errors.js';
import { checkHealth, checkReadiness, publicSettings } from './platform.service.js';

/** How soon a load balancer is asked to look again at a process not ready. */
const NOT_READY_RETRY_AFTER_SECONDS = 5;

const configSchema = z.object({
  productUrl: z.string(),
  chatbotUrl: z.string(),
  paymentProvider: z.enum(['sandbox', 'razorpay']),
  razorpayKeyId: z.string().nullable(),
});

/** Public settings the web app needs before sign-in, and the health checks. */
export async function platformRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/config',
    {
      config: { access: access.public },
      schema: {
        tags: ['platform'],
        summary: 'Public portal settings',
        response: { 200: successSchema(configSchema) },
      },
    },
    async (request) => ({ success: true as const, data: publicSettings(app.deps, visitorOf(request)) }),
  );

  app.get(
    '/api/health',
    {
      config: { access: access.public },
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database check',
        response: {
          200: z.object({ success: z.literal(true), status: z.literal('ok'), database: z.string() }),
        },
      },
    },
    async (request) => {
      const { database } = await checkHealth(app.deps, visitorOf(request));
      return { success: true as const, status: 'ok' as const, database };
    },
  );

  app.get(
    '/api/health/live',
    {
      config: { access: access.public },
      schema: {
        tags: ['platform'],
        summary: 'Liveness: the process answers (no database round trip)',
        response: { 200: z.object({ success: z.literal(true), status: z.literal('live') }) },
      },
    },
    async () => ({ success: true as const, status: 'live' as const }),
  );

  app.get(
    '/api/health/ready',
    {
      config: { access: access.public },
      schema: {
        tags: ['platform'],
        summary:
          'Readiness: 503 with Retry-After while the database is unreachable, migrations are pending or the process drains',
        response: {
          200: z.object({ success: z.literal(true), status: z.literal('ready'), database: z.string() }),
        },
      },
    },
    async (request) => {
      const readiness = await checkReadiness(app.deps, visitorOf(request));
      if (!readiness.ready) throw new ServiceBusyError(NOT_READY_RETRY_AFTER_SECONDS, readiness.problems);
      return { success: true as const, status: 'ready' as const, database: app.deps.dbKind };
    },
  );
}
