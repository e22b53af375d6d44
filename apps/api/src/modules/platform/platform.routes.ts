import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successSchema } from '@portal/shared';
import { systemActor } from '../../core/actor.js';
import { hourly, runPeriodically, type PeriodicJobOptions } from '../../lib/periodic-job.js';
import { access, visitorOf } from '../../plugins/access.js';
import { runHousekeeping, type Pruner } from './housekeeping.service.js';
import { checkHealth, publicSettings } from './platform.service.js';

const configSchema = z.object({
  productUrl: z.string(),
  chatbotUrl: z.string(),
  paymentProvider: z.enum(['sandbox', 'razorpay']),
  razorpayKeyId: z.string().nullable(),
});

/** Runs `runHousekeeping` on a timer while the app is up. */
async function housekeeping(
  app: FastifyInstance,
  options: PeriodicJobOptions & { pruners: readonly Pruner[] },
) {
  runPeriodically(app, 'housekeeping', options, async () => {
    const counts = await runHousekeeping(app.deps, systemActor('housekeeping'), {
      now: new Date(),
      pruners: options.pruners,
    });
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  });
}

/** Public settings the web app needs before sign-in, the health check, and the housekeeping timer. */
export async function platformRoutes(fastify: FastifyInstance, options: { pruners: readonly Pruner[] }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await app.register(housekeeping, {
    enabled: app.deps.env.NODE_ENV !== 'test',
    ...hourly,
    pruners: options.pruners,
  });
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
}
