import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successSchema } from '@portal/shared';
import { access, visitorOf } from '../../plugins/access.js';
import { checkHealth, publicSettings } from './platform.service.js';

const configSchema = z.object({
  productUrl: z.string(),
  chatbotUrl: z.string(),
  paymentProvider: z.enum(['sandbox', 'razorpay']),
  razorpayKeyId: z.string().nullable(),
});

/** Public settings the web app needs before sign-in, and the health check. */
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
}
