import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages, profileUpdateBodySchema, successSchema, userSchema } from '@portal/shared';
import { badRequest } from '../../lib/errors.js';
import { access, requireActor } from '../../plugins/access.js';
import { acceptUploads, readMultipartForm } from '../../plugins/multipart.js';
import { getProfile, replaceProfileImage, updateProfile } from './profile.service.js';

const tags = ['profile'];

export async function profileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await acceptUploads(app);

  app.get(
    '/api/auth/profile',
    {
      config: { access: access.signedIn },
      schema: { tags, summary: 'The signed-in user’s profile', response: { 200: successSchema(userSchema) } },
    },
    async (request) => ({ success: true as const, data: await getProfile(app.deps, requireActor(request)) }),
  );

  app.put(
    '/api/auth/profile',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'Update the signed-in user’s full name, contact number and username (email is read-only)',
        body: profileUpdateBodySchema,
        response: { 200: successSchema(userSchema).extend({ message: z.string() }) },
      },
    },
    async (request) => ({
      success: true as const,
      message: messages.profile.updated,
      data: await updateProfile(app.deps, requireActor(request), request.body),
    }),
  );

  app.put(
    '/api/auth/profile/image',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'Replace the profile image (multipart, one PNG, JPEG or WebP file up to 5 MB)',
        consumes: ['multipart/form-data'],
        response: { 200: successSchema(userSchema).extend({ message: z.string() }) },
      },
    },
    async (request) => {
      const actor = requireActor(request);
      if (!request.isMultipart()) throw badRequest(messages.profile.imageRequired);
      const form = await readMultipartForm(request, messages.profile.imageTooLarge);
      return {
        success: true as const,
        message: messages.profile.imageUpdated,
        data: await replaceProfileImage(app.deps, actor, form.file),
      };
    },
  );
}
