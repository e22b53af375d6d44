import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createPositionBodySchema,
  idParamsSchema,
  pageSchema,
  positionListQuerySchema,
  positionSchema,
  successSchema,
  updatePositionBodySchema,
} from '@portal/shared';
import { pageEnvelope } from '../../lib/paging.js';
import { access, requireActor } from '../../plugins/access.js';
import * as service from './positions.service.js';

const tags = ['positions'];
const one = { 200: successSchema(positionSchema) };

export async function positionsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/positions',
    {
      config: { access: access.can('positions', 'READ') },
      schema: {
        tags,
        summary: "The organization's positions (every organization's for super_admin)",
        querystring: positionListQuerySchema,
        response: { 200: pageSchema(positionSchema) },
      },
    },
    async (request) => {
      const { items, total } = await service.listPositions(app.deps, requireActor(request), request.query);
      return pageEnvelope(request.query, items, total);
    },
  );

  app.get(
    '/api/auth/positions/:id',
    {
      config: { access: access.can('positions', 'READ') },
      schema: { tags, summary: 'A position by id', params: idParamsSchema, response: one },
    },
    async (request) => {
      const data = await service.getPosition(app.deps, requireActor(request), request.params);
      return { success: true as const, data };
    },
  );

  app.post(
    '/api/auth/positions',
    {
      config: { access: access.can('positions', 'CREATE') },
      schema: {
        tags,
        summary: 'Create a position (own organization; super_admin may pass organizationId)',
        body: createPositionBodySchema,
        response: { 201: successSchema(positionSchema) },
      },
    },
    async (request, reply) => {
      const data = await service.createPosition(app.deps, requireActor(request), request.body);
      return reply.status(201).send({ success: true as const, data });
    },
  );

  app.put(
    '/api/auth/positions/:id',
    {
      config: { access: access.can('positions', 'UPDATE') },
      schema: {
        tags,
        summary: "Edit a position's title, department, location and openings",
        params: idParamsSchema,
        body: updatePositionBodySchema,
        response: one,
      },
    },
    async (request) => {
      const data = await service.updatePosition(app.deps, requireActor(request), {
        id: request.params.id,
        body: request.body,
      });
      return { success: true as const, data };
    },
  );

  app.put(
    '/api/auth/positions/:id/close',
    {
      config: { access: access.can('positions', 'UPDATE') },
      schema: { tags, summary: 'Close a position', params: idParamsSchema, response: one },
    },
    async (request) => {
      const data = await service.setPositionStatus(app.deps, requireActor(request), {
        id: request.params.id,
        status: 'Closed',
      });
      return { success: true as const, data };
    },
  );

  app.put(
    '/api/auth/positions/:id/reopen',
    {
      config: { access: access.can('positions', 'UPDATE') },
      schema: { tags, summary: 'Reopen a closed position', params: idParamsSchema, response: one },
    },
    async (request) => {
      const data = await service.setPositionStatus(app.deps, requireActor(request), {
        id: request.params.id,
        status: 'Open',
      });
      return { success: true as const, data };
    },
  );
}
