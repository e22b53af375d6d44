import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { onboardingBodySchema, onboardingResultSchema, successSchema } from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { readIdempotencyKey } from './idempotency-key.js';
import { onboard } from './onboarding.service.js';

export async function onboardingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/auth/onboarding',
    {
      // Also needs Subscription Management CREATE and Organization Management CREATE (service).
      config: { access: access.can('users', 'CREATE') },
      schema: {
        tags: ['billing'],
        summary:
          'Create organization, admin user, subscription and (optional) manual payment in one transaction; Idempotency-Key required',
        body: onboardingBodySchema,
        response: { 201: successSchema(onboardingResultSchema) },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const key = readIdempotencyKey(request, true);
      const result = await onboard(app.deps, actor, { body: request.body, key });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.status as 201).send(result.body);
    },
  );
}
