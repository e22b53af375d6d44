import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  messages,
  okSchema,
  pageSchema,
  roleInputSchema,
  roleListQuerySchema,
  roleSchema,
  roleTwoFactorBodySchema,
  successSchema,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import * as rolesService from './roles.service.js';

const tags = ['roles'];

export async function rolesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/roles',
    {
      config: { access: access.can('roles', 'READ') },
      schema: {
        tags,
        summary: 'System roles and the organization’s custom roles; search by name or id',
        querystring: roleListQuerySchema,
        response: { 200: pageSchema(roleSchema) },
      },
    },
    async (request) => {
      return rolesService.listRoles(app.deps, requireActor(request), request.query);
    },
  );

  app.get(
    '/api/auth/roles/:id',
    {
      config: { access: access.can('roles', 'READ') },
      schema: {
        tags,
        summary: 'A role with its permissions',
        params: idParamsSchema,
        response: { 200: successSchema(roleSchema) },
      },
    },
    async (request) => {
      const data = await rolesService.getRole(app.deps, requireActor(request), request.params);
      return { success: true as const, data };
    },
  );

  app.post(
    '/api/auth/roles',
    {
      config: { access: access.can('roles', 'CREATE') },
      schema: {
        tags,
        summary: 'Create a custom role (super_admin may pass organizationId)',
        body: roleInputSchema,
        response: { 201: successSchema(roleSchema) },
      },
    },
    async (request, reply) => {
      const data = await rolesService.createRole(app.deps, requireActor(request), request.body);
      return reply.status(201).send({ success: true as const, data });
    },
  );

  app.put(
    '/api/auth/roles/:id',
    {
      config: { access: access.can('roles', 'UPDATE') },
      schema: {
        tags,
        summary: 'Rename a custom role and replace its permissions (system roles: 403)',
        params: idParamsSchema,
        body: roleInputSchema,
        response: { 200: successSchema(roleSchema) },
      },
    },
    async (request) => {
      const data = await rolesService.updateRole(app.deps, requireActor(request), {
        id: request.params.id,
        body: request.body,
      });
      return { success: true as const, data };
    },
  );

  app.put(
    '/api/auth/roles/:id/two-factor',
    {
      config: { access: access.can('roles', 'UPDATE') },
      schema: {
        tags,
        summary: "Require (or not) a second factor of the role's users: the platform operator, any role",
        params: idParamsSchema,
        body: roleTwoFactorBodySchema,
        response: { 200: successSchema(roleSchema).extend({ message: z.string() }) },
      },
    },
    async (request) => {
      const { required } = request.body;
      const data = await rolesService.setRoleTwoFactor(app.deps, requireActor(request), {
        id: request.params.id,
        required,
      });
      const message = required ? messages.twoFactor.roleRequired : messages.twoFactor.roleNotRequired;
      return { success: true as const, message, data };
    },
  );

  app.delete(
    '/api/auth/roles/:id',
    {
      config: { access: access.can('roles', 'DELETE') },
      schema: {
        tags,
        summary: 'Delete a custom role no user holds (system roles: 403; held: 409)',
        params: idParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await rolesService.deleteRole(app.deps, requireActor(request), request.params);
      return { success: true as const, message: messages.roles.deleted };
    },
  );
}
