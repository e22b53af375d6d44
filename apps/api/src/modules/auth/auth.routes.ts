import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createUserBodySchema,
  loginBodySchema,
  loginResultSchema,
  okSchema,
  secondStepBodySchema,
  sessionUserSchema,
  successSchema,
  userSchema,
  USER_ID_HEADER,
} from '@portal/shared';
import { access, requireActor, visitorOf } from '../../plugins/access.js';
import {
  clearSessionCookies,
  DEVICE_COOKIE,
  REFRESH_COOKIE,
  setDeviceCookie,
  setSessionCookies,
} from '../../plugins/session-cookies.js';
import { registerCompany } from '../users/index.js';
import * as auth from './auth.service.js';

const tags = ['auth'];

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
      const result = await auth.login(app.deps, visitorOf(request), {
        identifier: (identifier ?? email ?? username)!,
        password,
        deviceToken: request.cookies[DEVICE_COOKIE],
      });
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
      const result = await auth.completeSignIn(app.deps, visitorOf(request), {
        ...request.body,
        deviceToken: request.cookies[DEVICE_COOKIE],
      });
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
      await auth.logout(app.deps, requireActor(request));
      clearSessionCookies(reply);
      return { success: true as const };
    },
  );

  const refreshHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const result = await auth.refresh(app.deps, visitorOf(request), {
        refreshToken: request.cookies[REFRESH_COOKIE],
        csrfToken: request.headers['x-csrf-token'],
      });
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
      const user = await auth.me(app.deps, requireActor(request));
      reply.header(USER_ID_HEADER, user.id);
      return { success: true as const, data: user };
    },
  );

  // Under the sign-in prefix for the SPEC's sake; a users module act (an invitation).
  app.post(
    '/api/auth/auth-session/register',
    {
      config: { access: access.can('users', 'CREATE') },
      schema: {
        tags: ['users'],
        summary:
          'Add a member to an existing organization with any role visible to it; emails a set-password link',
        body: createUserBodySchema,
        response: { 201: successSchema(userSchema) },
      },
    },
    async (request, reply) => {
      const user = await registerCompany(app.deps, requireActor(request), request.body);
      return reply.code(201).send({ success: true as const, data: user });
    },
  );
}
