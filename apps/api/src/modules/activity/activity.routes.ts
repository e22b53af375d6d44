import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { activityItemSchema, activityListQuerySchema, pageSchema } from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { listFeed } from './activity.service.js';

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
      const auth = requireActor(request);
      const { page, pageSize } = request.query;
      const { items, total } = await listFeed(app.db, auth, request.query);
      return { success: true as const, data: items, meta: { page, pageSize, total } };
    },
  );
}
