import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@portal/shared';
import { attachmentDisposition } from '../../lib/spreadsheet.js';
import { access, requireActor } from '../../plugins/access.js';
import * as service from './files.service.js';

const tags = ['files'];
/** Shown in the page (an <img>, a preview); everything else is downloaded. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

export async function filesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/files/:id',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'A stored file (profile image or ticket attachment) of the caller’s organization',
        params: idParamsSchema,
      },
    },
    async (request, reply) => {
      const file = await service.fileForDownload(app.deps, requireActor(request), request.params);
      // nosniff and no-store come with every answer (plugins/security-headers.ts).
      return (
        reply
          .header('Content-Type', file.mimeType)
          .header(
            'Content-Disposition',
            attachmentDisposition(file.fileName, INLINE_TYPES.has(file.mimeType) ? 'inline' : 'attachment'),
          )
          // Even if opened directly, a stored file can run nothing.
          .header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox")
          .send(file.data)
      );
    },
  );
}
