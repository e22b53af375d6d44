import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { featureSchema, pageSchema } from '@portal/shared';
import { pageEnvelope } from '../../lib/paging.js';
import { access, requireActor } from '../../plugins/access.js';
import { listFeatures } from './features.service.js';

const tags = ['roles'];

export async function featuresRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/features',
    {
      // Any signed-in user: the feature list holds no tenant data, and the role editor and the
      // view-only permission screen need it (docs/decisions/003-roles-and-permissions.md).
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'Every feature a role can grant scopes on (a small fixed list, not paged)',
        response: { 200: pageSchema(featureSchema) },
      },
    },
    async (request) => {
      const data = await listFeatures(app.deps, requireActor(request));
      // One page holding every feature.
      return pageEnvelope({ page: 1, pageSize: data.length }, data, data.length);
    },
  );
}
