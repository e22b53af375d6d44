import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createUserBodySchema,
  idParamsSchema,
  messages,
  pageSchema,
  successSchema,
  updateUserBodySchema,
  userExportQuerySchema,
  userListQuerySchema,
  userSchema,
  type CreateUserBody,
  type User,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { can, tenantScope } from '../../core/actor.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { findUserDto } from '../../core/identity/users.repo.js';
import { attachmentDisposition, spreadsheetContentType, spreadsheetFileName } from '../../lib/spreadsheet.js';
import { usersSpreadsheet } from './users-export.js';
import {
  inviteUser,
  listUsers,
  resendInvite,
  setUserActive,
  updateUser,
  usersForExport,
  type CreateUserOptions,
} from './users.service.js';

const tags = ['users'];
const userAnswer = successSchema(userSchema);
const userAnswerWithMessage = z.object({ success: z.literal(true), data: userSchema, message: z.string() });

export async function usersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  async function userDto(id: string): Promise<User> {
    const user = await findUserDto(app.db, id);
    if (!user) throw notFound(messages.users.notFound);
    return user;
  }

  app.get(
    '/api/auth/users',
    {
      config: { access: access.can('users', 'READ') },
      schema: {
        tags,
        summary:
          'Users, one page: search (username, full name, email, client), role (name or id), status, sort; own organization unless super_admin',
        querystring: userListQuerySchema,
        response: { 200: pageSchema(userSchema) },
      },
    },
    async (request) => {
      const result = await listUsers(app.db, requireActor(request), request.query);
      return { success: true as const, ...result };
    },
  );

  app.get(
    '/api/auth/users/export',
    {
      config: { access: access.can('users', 'EXPORT') },
      schema: {
        tags,
        summary: 'Every user matching the list filters as an .xlsx (default) or .csv download, streamed',
        querystring: userExportQuerySchema,
        // The answer is a file stream, not JSON.
      },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      const batches = usersForExport(app.db, requireActor(request), filters);
      return reply
        .header('Content-Disposition', attachmentDisposition(spreadsheetFileName('users', format)))
        .type(spreadsheetContentType(format))
        .send(usersSpreadsheet(format, batches));
    },
  );

  app.get(
    '/api/auth/users/:id',
    {
      // Anyone may read their own record; reading another needs User Management READ (checked below).
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'A user by id (own record, or User Management READ)',
        params: idParamsSchema,
        response: { 200: userAnswer },
      },
    },
    async (request) => {
      const auth = requireActor(request);
      const { id } = request.params;
      if (id !== auth.userId && !can(auth, 'users', 'READ')) throw forbidden();
      const user = await findUserDto(app.db, id);
      const scope = tenantScope(auth);
      if (!user || (scope && user.organizationId !== scope)) throw notFound(messages.users.notFound);
      return { success: true as const, data: user };
    },
  );

  app.put(
    '/api/auth/users/:id',
    {
      // Own record: username, fullName, mobileNo. Anything else needs User Management UPDATE (service).
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'Update a user (own profile fields, or User Management UPDATE); email cannot change',
        params: idParamsSchema,
        body: updateUserBodySchema,
        response: { 200: userAnswer },
      },
    },
    async (request) => {
      const auth = requireActor(request);
      await updateUser(app, auth, request.params.id, request.body);
      return { success: true as const, data: await userDto(request.params.id) };
    },
  );

  for (const [action, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    app.put(
      `/api/auth/users/:id/${action}`,
      {
        config: { access: access.can('users', 'UPDATE') },
        schema: {
          tags,
          summary: active
            ? 'Activate a user (isActive and enabled true)'
            : 'Deactivate a user (isActive and enabled false) and end their sessions',
          params: idParamsSchema,
          response: { 200: userAnswerWithMessage },
        },
      },
      async (request) => {
        const auth = requireActor(request);
        await setUserActive(app, auth, request.params.id, active);
        return {
          success: true as const,
          data: await userDto(request.params.id),
          message: active ? messages.users.activated : messages.users.deactivated,
        };
      },
    );
  }

  app.post(
    '/api/auth/users/:id/resend-invite',
    {
      config: { access: access.can('users', 'UPDATE') },
      schema: {
        tags,
        summary: 'Email a new set-password link to a user who has not set a password (voids the old link)',
        params: idParamsSchema,
        response: { 200: userAnswerWithMessage },
      },
    },
    async (request) => {
      const auth = requireActor(request);
      await resendInvite(app, auth, request.params.id);
      return {
        success: true as const,
        data: await userDto(request.params.id),
        message: messages.users.inviteResent,
      };
    },
  );

  async function create(request: FastifyRequest<{ Body: CreateUserBody }>, options: CreateUserOptions) {
    return userDto(await inviteUser(app, requireActor(request), request.body, options));
  }

  app.post(
    '/api/auth/users/as/admin',
    {
      config: { access: access.can('users', 'CREATE') },
      schema: {
        tags,
        summary: 'Invite a user (creates the organization when its id is new); emails a set-password link',
        body: createUserBodySchema,
        response: { 201: userAnswer },
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
        response: { 201: userAnswer },
      },
    },
    async (request, reply) => {
      const user = await create(request, { allowNewOrganization: false });
      return reply.code(201).send({ success: true as const, data: user });
    },
  );
}
