import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changePasswordBodySchema, messages, okSchema } from '@portal/shared';
import { access, requireAuth } from '../../plugins/access.js';
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

export async function passwordRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

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
      await changePassword(app, requireAuth(request), request.body);
      return { success: true as const, message: messages.password.changed };
    },
  );
}
