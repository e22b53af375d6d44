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
import { systemActor } from '../../core/actor.js';
import { access, requireApiClient, requireActor } from '../../plugins/access.js';
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
      data: await getCreditSummary(app.deps, requireActor(request), request.query),
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
    async (request) => listLedger(app.deps, requireActor(request), request.query),
  );

  app.post(
    '/api/v1/credits/use',
    {
      config: { access: access.apiKey },
      schema: {
        tags,
        summary:
          'The interview product spends credits (Authorization: Bearer <API key>); a reference debits once',
        body: useCreditsBodySchema,
        response: { 200: successSchema(creditsUsedSchema) },
      },
    },
    async (request) => {
      // No user signs in here: the portal acts for the key's organization, which the input names.
      const client = requireApiClient(request);
      const data = await useCredits(app.deps, systemActor('api-key'), { client, body: request.body });
      return { success: true as const, data };
    },
  );
}
