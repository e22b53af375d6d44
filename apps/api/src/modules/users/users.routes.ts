import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createUserBodySchema, idParamsSchema, messages, successSchema, userSchema } from '@portal/shared';
import { access, can, requireAuth, tenantScope } from '../../plugins/access.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { publicBaseUrl } from '../auth/auth.routes.js';
import { findUserDto } from './user-dto.repo.js';
import { createUser, type CreateUserOptions } from './users.service.js';

const tags = ['users'];

export async function usersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/users/:id',
    {
      // Anyone may read their own record; reading another needs User Management READ (checked below).
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'A user by id (own record, or User Management READ)',
        params: idParamsSchema,
        response: { 200: successSchema(userSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      if (id !== auth.userId && !can(auth, 'users', 'READ')) throw forbidden();
      const user = await findUserDto(app.db, id);
      const scope = tenantScope(auth);
      if (!user || (scope && user.organizationId !== scope)) throw notFound(messages.users.notFound);
      return { success: true as const, data: user };
    },
  );

  async function create(
    request: import('fastify').FastifyRequest<{ Body: import('@portal/shared').CreateUserBody }>,
    options: CreateUserOptions,
  ) {
    const auth = requireAuth(request);
    const delivery = { mailer: app.mailer, baseUrl: publicBaseUrl(app, request) };
    const created = await app.db.transaction((tx) => createUser(tx, auth, request.body, delivery, options));
    await app.mailer.deliver(app.db, created.outboxId);
    return (await findUserDto(app.db, created.user.id))!;
  }

  app.post(
    '/api/auth/users/as/admin',
    {
      config: { access: access.can('users', 'CREATE') },
      schema: {
        tags,
        summary: 'Invite a user (creates the organization when its id is new); emails a set-password link',
        body: createUserBodySchema,
        response: { 201: successSchema(userSchema) },
      },
    },
    async (request, reply) => {
      const user = await create(request, { allowNewOrganization: true });
      return reply.code(201).send({ success: true as const, data: user });
    },
  );

  app.post(
    '/api/auth/auth-session/register',
    {
      config: { access: access.can('users', 'CREATE') },
      schema: {
        tags,
        summary:
          'Add a member to an existing organization with any role visible to it; emails a set-password link',
        body: createUserBodySchema,
        response: { 201: successSchema(userSchema) },
      },
    },
    async (request, reply) => {
      const user = await create(request, { allowNewOrganization: false });
      return reply.code(201).send({ success: true as const, data: user });
    },
  );
}
