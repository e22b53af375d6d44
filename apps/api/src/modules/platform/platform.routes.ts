import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successSchema } from '@portal/shared';
import { access } from '../../plugins/access.js';
import { hourly } from '../../lib/periodic-job.js';
import { housekeeping } from './housekeeping.js';

const configSchema = z.object({
  productUrl: z.string(),
  chatbotUrl: z.string(),
  paymentProvider: z.enum(['sandbox', 'razorpay']),
  razorpayKeyId: z.string().nullable(),
});

/** Public settings the web app needs before sign-in (links from configuration). */
export async function platformRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await app.register(housekeeping, { enabled: app.env.NODE_ENV !== 'test', ...hourly });
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
    async () => {
      const razorpay = app.env.paymentProvider === 'razorpay';
      return {
        success: true as const,
        data: {
          productUrl: app.env.PRODUCT_URL,
          chatbotUrl: app.env.CHATBOT_URL,
          // 'sandbox' makes every screen show "Test mode".
          paymentProvider: app.env.paymentProvider,
          razorpayKeyId: razorpay ? (app.env.RAZORPAY_KEY_ID ?? null) : null,
        },
      };
    },
  );
}
