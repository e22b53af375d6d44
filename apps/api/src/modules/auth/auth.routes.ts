import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  forgotPasswordBodySchema,
  loginBodySchema,
  loginResultSchema,
  messages,
  okSchema,
  resetPasswordBodySchema,
  secondStepBodySchema,
  sessionUserSchema,
  successSchema,
  USER_ID_HEADER,
} from '@portal/shared';
import { access } from '../../plugins/access.js';
import { clientAddress } from '../../lib/client-address.js';
import { unauthorized } from '../../lib/errors.js';
import { findUserDto } from '../../core/identity/users.repo.js';
import {
  clearSessionCookies,
  DEVICE_COOKIE,
  REFRESH_COOKIE,
  setDeviceCookie,
  setSessionCookies,
} from './cookies.js';
import * as auth from './auth.service.js';
import type { ClientInfo } from './auth.service.js';

const tags = ['auth'];

function clientInfo(request: FastifyRequest): ClientInfo {
  return {
    ip: clientAddress(request),
    userAgent: request.headers['user-agent'],
    deviceToken: request.cookies[DEVICE_COOKIE],
  };
}

function startSession(request: FastifyRequest, reply: FastifyReply, result: auth.SignedIn) {
  setSessionCookies(request, reply, result.tokens);
  setDeviceCookie(request, reply, result.deviceToken);
  reply.header(USER_ID_HEADER, result.user.id);
}

export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/auth/auth-session/login',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Sign in with email or username',
        description:
          'Answers the signed-in user, or (two-factor sign-in on) a challenge for POST /auth-session/two-factor.',
        body: loginBodySchema,
        response: { 200: successSchema(loginResultSchema) },
      },
    },
    async (request, reply) => {
      const { identifier, email, username, password } = request.body;
      const result = await auth.login(app, (identifier ?? email ?? username)!, password, clientInfo(request));
      if (result.kind === 'challenge') return { success: true as const, data: result.challenge };
      startSession(request, reply, result);
      return { success: true as const, data: result.user };
    },
  );

  app.post(
    '/api/auth/auth-session/two-factor',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: "Sign in's second step: the challenge and a code (or a recovery code)",
        body: secondStepBodySchema,
        response: { 200: successSchema(sessionUserSchema) },
      },
    },
    async (request, reply) => {
      const { challenge, code } = request.body;
      const result = await auth.completeSignIn(app, challenge, code, clientInfo(request));
      startSession(request, reply, result);
      return { success: true as const, data: result.user };
    },
  );

  app.post(
    '/api/auth/auth-session/logout',
    {
      config: { access: access.beforeEnrolment },
      schema: { tags, summary: 'Sign out and revoke the session', response: { 200: okSchema } },
    },
    async (request, reply) => {
      await auth.logout(app, request.actor?.familyId ?? null);
      clearSessionCookies(reply);
      return { success: true as const };
    },
  );

  const refreshHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const result = await auth.refresh(
        app,
        request.cookies[REFRESH_COOKIE],
        request.headers['x-csrf-token'],
        clientInfo(request),
      );
      setSessionCookies(request, reply, result.tokens);
      reply.header(USER_ID_HEADER, result.user.id);
      return { success: true as const, data: result.user };
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 401) clearSessionCookies(reply);
      throw error;
    }
  };
  const refreshSchema = {
    tags,
    summary: 'Rotate the refresh token and issue a new access token',
    response: { 200: successSchema(sessionUserSchema) },
  };
  // Public with respect to the access cookie, which has usually expired; the service checks the
  // refresh cookie and the CSRF token of its session family.
  app.post(
    '/api/auth/auth-session/refresh-token',
    { config: { access: access.public }, schema: refreshSchema },
    refreshHandler,
  );
  app.post(
    '/api/refresh',
    { config: { access: access.public }, schema: { ...refreshSchema, summary: 'Alias of refresh-token' } },
    refreshHandler,
  );

  app.get(
    '/api/auth/auth-session/me',
    {
      config: { access: access.beforeEnrolment },
      schema: {
        tags,
        summary: 'The signed-in user and their two-factor state',
        response: { 200: successSchema(sessionUserSchema) },
      },
    },
    async (request, reply) => {
      const user = await findUserDto(app.db, request.actor!.userId);
      if (!user) throw unauthorized();
      reply.header(USER_ID_HEADER, user.id);
      return { success: true as const, data: { ...user, twoFactor: request.actor!.twoFactor } };
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Email a reset link (same answer for any email)',
        body: forgotPasswordBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await auth.forgotPassword(app, request.body.email, clientAddress(request));
      return { success: true as const, message: messages.login.forgotPasswordSent };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Set a password from an invite or reset link',
        body: resetPasswordBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await auth.resetPassword(app, request.body.token, request.body.password, clientAddress(request));
      return { success: true as const, message: messages.login.resetDone };
    },
  );

  app.get(
    '/api/health',
    {
      config: { access: access.public },
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database check',
        response: {
          200: z.object({ success: z.literal(true), status: z.literal('ok'), database: z.string() }),
        },
      },
    },
    async () => {
      await app.db.execute('select 1');
      return { success: true as const, status: 'ok' as const, database: app.dbKind };
    },
  );
}
