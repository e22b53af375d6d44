import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { activityItemSchema, activityListQuerySchema, pageSchema } from '@portal/shared';
import { pageEnvelope } from '../../lib/paging.js';
import { access, requireActor } from '../../plugins/access.js';
import * as service from './activity.service.js';

const tags = ['activity'];

export async function activityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/activities',
    {
      config: { access: access.can('dashboard', 'READ') },
      schema: {
        tags,
        summary: 'The activity feed, newest first (own organization; every organization for super_admin)',
        querystring: activityListQuerySchema,
        response: { 200: pageSchema(activityItemSchema) },
      },
    },
    async (request) => {
      const { items, total } = await service.listFeed(app.deps, requireActor(request), request.query);
      return pageEnvelope(request.query, items, total);
    },
  );
}
