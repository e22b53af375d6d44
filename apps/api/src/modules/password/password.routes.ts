import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordBodySchema,
  forgotPasswordBodySchema,
  messages,
  okSchema,
  resetPasswordBodySchema,
  successSchema,
} from '@portal/shared';
import { access, requireActor, visitorOf } from '../../plugins/access.js';
import { forgotPassword, isLinkTokenLive, resetPassword } from './password-links.service.js';
import { changePassword } from './password.service.js';

const tags = ['auth'];

/**
 * The shared body, with the strength rule moved to the service: "must be different" is answered
 * before "does not meet all requirements", and both only after the current password.
 */
const bodySchema = changePasswordBodySchema.extend({
  currentPassword: z
    .string({ error: messages.password.currentRequired })
    .min(1, messages.password.currentRequired)
    .max(200),
  newPassword: z
    .string({ error: messages.password.newRequired })
    .min(1, messages.password.newRequired)
    .max(200),
});

/** Any text up to the reset body's limit: a malformed token is answered like an unknown one. */
const checkResetTokenBodySchema = z.object({ token: z.string().max(200) });
const checkResetTokenAnswerSchema = successSchema(z.object({ usable: z.boolean() }));

export async function passwordRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

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
      await forgotPassword(app.deps, visitorOf(request), request.body);
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
      await resetPassword(app.deps, visitorOf(request), request.body);
      return { success: true as const, message: messages.login.resetDone };
    },
  );

  app.put(
    '/api/auth/users/password',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'Change the signed-in user’s password (ends their other sessions)',
        body: bodySchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await changePassword(app.deps, requireActor(request), request.body);
      return { success: true as const, message: messages.password.changed };
    },
  );

  app.post(
    '/api/auth/reset-password/check',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Whether an invite or reset link can still set a password, without using it',
        description:
          'The token travels in the body, not the path, to stay out of access logs. Unknown, used and expired tokens answer alike; each counts against the address limit of POST /auth/reset-password.',
        body: checkResetTokenBodySchema,
        response: { 200: checkResetTokenAnswerSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: { usable: await isLinkTokenLive(app.deps, visitorOf(request), request.body) },
    }),
  );
}
