import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  notificationListQuerySchema,
  notificationPageMetaSchema,
  notificationSchema,
  successSchema,
  unreadCountSchema,
} from '@portal/shared';
import { pageEnvelope } from '../../lib/paging.js';
import { access, requireActor } from '../../plugins/access.js';
import * as service from './notifications.service.js';

const tags = ['notifications'];

export async function notificationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/notifications',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "The caller's own notifications, newest first, with the unread count",
        querystring: notificationListQuerySchema,
        response: {
          200: z.object({
            success: z.literal(true),
            data: z.array(notificationSchema),
            meta: notificationPageMetaSchema,
          }),
        },
      },
    },
    async (request) => {
      const { items, total, unreadCount } = await service.listOwnNotifications(
        app.deps,
        requireActor(request),
        request.query,
      );
      const page = pageEnvelope(request.query, items, total);
      return { ...page, meta: { ...page.meta, unreadCount } };
    },
  );

  app.get(
    '/api/auth/notifications/unread-count',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "How many of the caller's notifications are unread (the bell polls it)",
        response: { 200: successSchema(unreadCountSchema) },
      },
    },
    async (request) => {
      const count = await service.ownUnreadCount(app.deps, requireActor(request));
      return { success: true as const, data: { count } };
    },
  );

  app.put(
    '/api/auth/notifications/read-all',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "Marks all of the caller's notifications read",
        response: { 200: successSchema(z.object({ updated: z.number() })) },
      },
    },
    async (request) => {
      const updated = await service.markAllOwnRead(app.deps, requireActor(request));
      return { success: true as const, data: { updated } };
    },
  );

  app.put(
    '/api/auth/notifications/:id/read',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "Marks one of the caller's notifications read (another user's: 404)",
        params: idParamsSchema,
        response: { 200: successSchema(notificationSchema) },
      },
    },
    async (request) => {
      const data = await service.markOwnRead(app.deps, requireActor(request), request.params);
      return { success: true as const, data };
    },
  );
}
