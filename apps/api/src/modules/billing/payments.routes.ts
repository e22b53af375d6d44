import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  billingListQuerySchema,
  createPaymentBodySchema,
  idParamsSchema,
  pageSchema,
  paymentSchema,
  successSchema,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { readIdempotencyKey } from './idempotency-key.js';
import { createPayment, getPayment, listPayments } from './payments.service.js';

const tags = ['billing'];

export async function paymentsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/auth/payments',
    {
      // Also needs Organization Management CREATE (platform operator), checked in the service.
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Record a manual payment (status CREATED; optional Idempotency-Key)',
        body: createPaymentBodySchema,
        response: { 201: successSchema(paymentSchema) },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const key = readIdempotencyKey(request, false);
      const result = await createPayment(app.deps, actor, { body: request.body, key });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.status as 201).send(result.body);
    },
  );

  app.get(
    '/api/auth/payments',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: "Payments (own organization; super_admin: all or one organization's)",
        querystring: billingListQuerySchema,
        response: { 200: pageSchema(paymentSchema) },
      },
    },
    async (request) => listPayments(app.deps, requireActor(request), request.query),
  );

  app.get(
    '/api/auth/payments/:id',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: 'A payment by id',
        params: idParamsSchema,
        response: { 200: successSchema(paymentSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getPayment(app.deps, requireActor(request), { id: request.params.id }),
    }),
  );
}
