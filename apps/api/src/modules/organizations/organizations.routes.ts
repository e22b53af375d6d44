import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listQuerySchema, organizationSummarySchema, pageSchema } from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { listOrganizations } from './organizations.service.js';

const tags = ['organizations'];
const querystring = listQuerySchema.extend({
  sort: z.enum(['name', 'createdAt']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});

export async function organizationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/organizations',
    {
      config: { access: access.can('organizations', 'READ') },
      schema: {
        tags,
        summary: 'Organizations (every one for super_admin, otherwise one’s own), searched by name',
        querystring,
        response: { 200: pageSchema(organizationSummarySchema) },
      },
    },
    async (request) => listOrganizations(app.deps, requireActor(request), request.query),
  );
}
