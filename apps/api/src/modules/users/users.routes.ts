import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, messages, successSchema, userSchema } from '@portal/shared';
import { access, can, requireAuth, tenantScope } from '../../plugins/access.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { findUserDto } from './user-dto.repo.js';

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
}
