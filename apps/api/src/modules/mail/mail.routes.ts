import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
  mailAttemptsSchema,
  messages,
  okSchema,
  pageSchema,
  resendMailSchema,
  successSchema,
  undeliveredMailQuerySchema,
  undeliveredMailSchema,
} from '@portal/shared';
import { pageEnvelope } from '../../lib/paging.js';
import { access, requireActor } from '../../plugins/access.js';
import * as service from './mail.service.js';

const tags = ['mail'];

/** The super administrator's view of mail the portal gave up on, and sending it again. */
export async function mailRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/mail/undelivered',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'Mail given up on, newest first (super administrator)',
        querystring: undeliveredMailQuerySchema,
        response: { 200: pageSchema(undeliveredMailSchema) },
      },
    },
    async (request) => {
      const { items, total } = await service.listUndeliveredMail(
        app.deps,
        requireActor(request),
        request.query,
      );
      return pageEnvelope(request.query, items, total);
    },
  );

  app.get(
    '/api/auth/mail/:id/attempts',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "A mail's delivery attempts, oldest first (super administrator)",
        params: idParamsSchema,
        response: { 200: successSchema(mailAttemptsSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.listMailAttempts(app.deps, requireActor(request), request.params),
    }),
  );

  app.post(
    '/api/auth/mail/:id/resend',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'Send an undelivered mail again, to its address or a corrected one (super administrator)',
        params: idParamsSchema,
        body: resendMailSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.resendMail(app.deps, requireActor(request), {
        id: request.params.id,
        to: request.body.to,
      });
      return { success: true as const, message: messages.mail.resent };
    },
  );
}
