import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  billingListQuerySchema,
  createSubscriptionBodySchema,
  idParamsSchema,
  pageSchema,
  subscriptionSchema,
  successSchema,
  updateSubscriptionBodySchema,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { readIdempotencyKey } from './idempotency-key.js';
import {
  createSubscription,
  getSubscription,
  listSubscriptions,
  updateSubscription,
} from './subscriptions.service.js';

const tags = ['billing'];

export async function subscriptionsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/auth/subscriptions',
    {
      // Also needs Organization Management CREATE (platform operator), checked in the service.
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Create a subscription (amounts recomputed; optional Idempotency-Key)',
        body: createSubscriptionBodySchema,
        response: { 201: successSchema(subscriptionSchema) },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const key = readIdempotencyKey(request, false);
      const result = await createSubscription(app.deps, actor, { body: request.body, key });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.status as 201).send(result.body);
    },
  );

  app.put(
    '/api/auth/subscriptions/:id',
    {
      config: { access: access.can('subscriptions', 'UPDATE') },
      schema: {
        tags,
        summary: 'Attach the payment to a subscription, or change its status',
        params: idParamsSchema,
        body: updateSubscriptionBodySchema,
        response: { 200: successSchema(subscriptionSchema) },
      },
    },
    async (request) => {
      const data = await updateSubscription(app.deps, requireActor(request), {
        id: request.params.id,
        body: request.body,
      });
      return { success: true as const, data };
    },
  );

  app.get(
    '/api/auth/subscriptions',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: "Subscriptions (own organization; super_admin: all or one organization's)",
        querystring: billingListQuerySchema,
        response: { 200: pageSchema(subscriptionSchema) },
      },
    },
    async (request) => listSubscriptions(app.deps, requireActor(request), request.query),
  );

  app.get(
    '/api/auth/subscriptions/:id',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: 'A subscription by id',
        params: idParamsSchema,
        response: { 200: successSchema(subscriptionSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getSubscription(app.deps, requireActor(request), { id: request.params.id }),
    }),
  );
}
