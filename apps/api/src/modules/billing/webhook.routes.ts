import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successSchema } from '@portal/shared';
import { systemActor } from '../../core/actor.js';
import { access } from '../../plugins/access.js';
import { handleWebhook } from './webhook.service.js';

/**
 * The provider's webhook. Its signature covers the exact bytes sent, so this plugin (and only it:
 * Fastify scopes content type parsers to the plugin) keeps the JSON body as a raw Buffer.
 */
export async function webhookRoutes(fastify: FastifyInstance) {
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/admin/payment/webhook',
    {
      config: { access: access.public },
      schema: {
        tags: ['billing'],
        summary: 'Payment provider webhook (X-Razorpay-Signature over the raw body); each event applied once',
        body: z.custom<Buffer>((value) => Buffer.isBuffer(value), 'A JSON body is required'),
        response: {
          200: successSchema(z.object({ applied: z.boolean(), duplicate: z.boolean() })),
        },
      },
    },
    async (request) => {
      const signature = request.headers['x-razorpay-signature'];
      const eventId = request.headers['x-razorpay-event-id'];
      const data = await handleWebhook(app.deps, systemActor('webhook'), {
        rawBody: request.body,
        signature: typeof signature === 'string' ? signature : undefined,
        eventId: typeof eventId === 'string' ? eventId : undefined,
      });
      return { success: true as const, data };
    },
  );
}
