import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages } from '@portal/shared';
import { AppError, invalidInput, ServiceBusyError } from '../lib/errors.js';

/**
 * One handler for every error: `{success: false, message, errors}`. 4xx messages are meant for the
 * user; a 5xx is logged with its details and answered with a generic text (STYLE.md §4).
 */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ServiceBusyError) reply.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof AppError) {
      return reply
        .status(error.statusCode)
        .send({ success: false, message: error.message, errors: error.errors ?? {} });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const { errors, message } = invalidInput(
        error.validation.map((issue) => ({
          path: issue.instancePath.split('/').filter(Boolean),
          message: issue.message ?? messages.http.validation,
        })),
      );
      return reply.status(400).send({ success: false, message, errors: errors ?? {} });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported type): safe to show.
      return reply
        .status(status)
        .send({ success: false, message: error.message || messages.http.badRequest, errors: {} });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ success: false, message: messages.http.internal, errors: {} });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ success: false, message: messages.http.notFound, errors: {} });
  });
}

export default fp(errorsPlugin, { name: 'errors' });
