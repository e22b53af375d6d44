import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardSchema, successSchema } from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import * as service from './dashboard.service.js';

const tags = ['dashboard'];

export async function dashboardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/dashboard',
    {
      config: { access: access.can('dashboard', 'READ') },
      schema: {
        tags,
        summary: 'Home: welcome message, stat cards, a 12-month series and recent activity',
        response: { 200: successSchema(dashboardSchema) },
      },
    },
    async (request) => {
      const data = await service.buildDashboard(app.deps, requireActor(request));
      return { success: true as const, data };
    },
  );
}
