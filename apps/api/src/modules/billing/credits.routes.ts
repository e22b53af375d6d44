import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  billingListQuerySchema,
  creditsQuerySchema,
  creditSummarySchema,
  creditsUsedSchema,
  ledgerEntrySchema,
  pageSchema,
  successSchema,
  useCreditsBodySchema,
} from '@portal/shared';
import { unauthorized } from '../../lib/errors.js';
import { access, requireAuth } from '../../plugins/access.js';
import { authenticateApiKey } from './api-keys.service.js';
import { getCreditSummary, listLedger, useCredits } from './credits.service.js';

const tags = ['billing'];

export async function creditsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/credits',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: 'Credit balance, current subscription and recent ledger entries',
        querystring: creditsQuerySchema,
        response: { 200: successSchema(creditSummarySchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getCreditSummary(app, requireAuth(request), request.query.organizationId),
    }),
  );

  app.get(
    '/api/auth/credits/ledger',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: 'The credit ledger, newest first',
        querystring: billingListQuerySchema,
        response: { 200: pageSchema(ledgerEntrySchema) },
      },
    },
    async (request) => listLedger(app, requireAuth(request), request.query),
  );

  app.post(
    '/api/v1/credits/use',
    {
      config: { access: access.apiKey },
      onRequest: async (request) => authenticateApiKey(app, request),
      schema: {
        tags,
        summary:
          'The interview product spends credits (Authorization: Bearer <API key>); a reference debits once',
        body: useCreditsBodySchema,
        response: { 200: successSchema(creditsUsedSchema) },
      },
    },
    async (request) => {
      if (!request.apiClient) throw unauthorized();
      return { success: true as const, data: await useCredits(app, request.apiClient, request.body) };
    },
  );
}
