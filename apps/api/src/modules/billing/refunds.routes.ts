import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, refundBodySchema, refundResultSchema, successSchema } from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { readIdempotencyKey } from './idempotency-key.js';
import { refundPayment } from './refunds.service.js';

export async function refundsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/auth/payments/:id/refunds',
    {
      // Also needs Organization Management CREATE (platform operator), checked in the service.
      config: { access: access.can('subscriptions', 'UPDATE') },
      schema: {
        // Listed with the invoices in the API docs, as before: a refund's answer is its credit note.
        tags: ['invoices'],
        summary:
          'Refund a captured payment fully or in part (Idempotency-Key required): a credit note, and the refunded share of its credits taken back',
        params: idParamsSchema,
        body: refundBodySchema,
        response: { 201: successSchema(refundResultSchema).extend({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const key = readIdempotencyKey(request, true);
      const result = await refundPayment(app.deps, actor, {
        id: request.params.id,
        body: request.body,
        key,
      });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.status as 201).send(result.body);
    },
  );
}
