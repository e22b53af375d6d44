import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiKeySchema,
  billingListQuerySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  idParamsSchema,
  pageSchema,
  successSchema,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';

const tags = ['billing'];

/**
 * API keys spend the organization's credits, so managing them is part of Subscription Management.
 * Create and revoke both need CREATE: the admin system role holds READ and CREATE there (not UPDATE
 * or DELETE), and an organization's admin must be able to rotate its own keys.
 */
export async function apiKeysRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/auth/api-keys',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Create an API key; the key is answered once and stored hashed',
        body: createApiKeyBodySchema,
        response: { 201: successSchema(createdApiKeySchema) },
      },
    },
    async (request, reply) => {
      const data = await createApiKey(app.deps, requireActor(request), request.body);
      return reply.status(201).send({ success: true as const, data });
    },
  );

  app.get(
    '/api/auth/api-keys',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: "The organization's API keys (never the keys themselves)",
        querystring: billingListQuerySchema,
        response: { 200: pageSchema(apiKeySchema) },
      },
    },
    async (request) => listApiKeys(app.deps, requireActor(request), request.query),
  );

  app.delete(
    '/api/auth/api-keys/:id',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: idParamsSchema,
        response: { 200: successSchema(apiKeySchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await revokeApiKey(app.deps, requireActor(request), { id: request.params.id }),
    }),
  );
}
