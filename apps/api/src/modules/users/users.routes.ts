import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createUserBodySchema,
  endedSessionsSchema,
  idParamsSchema,
  messages,
  okSchema,
  pageSchema,
  successSchema,
  updateUserBodySchema,
  userExportQuerySchema,
  userListQuerySchema,
  userSchema,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { attachmentDisposition, spreadsheetContentType, spreadsheetFileName } from '../../lib/spreadsheet.js';
import { usersSpreadsheet } from './users-export.js';
import { inviteUser } from './invites.service.js';
import { endSessionsOfUser, resetTwoFactorOfUser } from './user-access.service.js';
import {
  getUser,
  listUsers,
  resendInvite,
  setUserActive,
  updateUser,
  usersForExport,
} from './users.service.js';

const tags = ['users'];
const userAnswer = successSchema(userSchema);
const userAnswerWithMessage = z.object({ success: z.literal(true), data: userSchema, message: z.string() });

export async function usersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

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
    async (request) => listUsers(app.deps, requireActor(request), request.query),
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
      const { format } = request.query;
      const batches = usersForExport(app.deps, requireActor(request), request.query);
      return reply
        .header('Content-Disposition', attachmentDisposition(spreadsheetFileName('users', format)))
        .type(spreadsheetContentType(format))
        .send(usersSpreadsheet(format, batches));
    },
  );

  app.get(
    '/api/auth/users/:id',
    {
      // Anyone may read their own record; reading another needs User Management READ (service).
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'A user by id (own record, or User Management READ)',
        params: idParamsSchema,
        response: { 200: userAnswer },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getUser(app.deps, requireActor(request), request.params),
    }),
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
    async (request) => ({
      success: true as const,
      data: await updateUser(app.deps, requireActor(request), { id: request.params.id, body: request.body }),
    }),
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
      async (request) => ({
        success: true as const,
        data: await setUserActive(app.deps, requireActor(request), { id: request.params.id, active }),
        message: active ? messages.users.activated : messages.users.deactivated,
      }),
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
    async (request) => ({
      success: true as const,
      data: await resendInvite(app.deps, requireActor(request), request.params),
      message: messages.users.inviteResent,
    }),
  );

  app.post(
    '/api/auth/users/:id/end-sessions',
    {
      config: { access: access.can('users', 'UPDATE') },
      schema: {
        tags: ['sessions'],
        summary: 'End every session of a user (the platform operator)',
        params: idParamsSchema,
        response: { 200: successSchema(endedSessionsSchema).extend({ message: z.string() }) },
      },
    },
    async (request) => {
      const ended = await endSessionsOfUser(app.deps, requireActor(request), request.params);
      return { success: true as const, message: messages.sessions.userSessionsEnded, data: { ended } };
    },
  );

  app.post(
    '/api/auth/users/:id/two-factor/reset',
    {
      config: { access: access.can('users', 'UPDATE') },
      schema: {
        tags: ['two-factor'],
        summary:
          "Remove another user's second factor (lost authenticator and recovery codes); ends their sessions and mails them",
        params: idParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await resetTwoFactorOfUser(app.deps, requireActor(request), request.params);
      return { success: true as const, message: messages.twoFactor.userReset };
    },
  );

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
      const user = await inviteUser(app.deps, requireActor(request), request.body);
      return reply.code(201).send({ success: true as const, data: user });
    },
  );
}
