import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activeSessionSchema,
  endedSessionsSchema,
  idParamsSchema,
  messages,
  okSchema,
  successSchema,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { endOtherSessions, endSession, listSessions } from './sessions.service.js';

const tags = ['sessions'];
const endedSchema = successSchema(endedSessionsSchema).extend({ message: z.string() });

export async function sessionsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/sessions',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "The signed-in user's active sessions (one per browser)",
        response: { 200: successSchema(z.array(activeSessionSchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listSessions(app.deps, requireActor(request)),
    }),
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'End one of your sessions (that browser is signed out at its next request)',
        params: idParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await endSession(app.deps, requireActor(request), request.params);
      return { success: true as const, message: messages.sessions.ended };
    },
  );

  app.post(
    '/api/auth/sessions/end-others',
    {
      config: { access: access.signedIn },
      schema: { tags, summary: 'End every session but this one', response: { 200: endedSchema } },
    },
    async (request) => {
      const ended = await endOtherSessions(app.deps, requireActor(request));
      return { success: true as const, message: messages.sessions.othersEnded, data: { ended } };
    },
  );
}
