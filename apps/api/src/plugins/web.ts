import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

/** Serves the built web app, with index.html for every non-API path (client-side routes). */
async function webPlugin(app: FastifyInstance, options: { distDir: string }) {
  if (!existsSync(options.distDir)) {
    app.log.warn({ distDir: options.distDir }, 'web app not built; serving the API only');
    return;
  }
  await app.register(fastifyStatic, { root: options.distDir, wildcard: false, index: false });
  app.get('/*', (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.status(404).send({ success: false, message: 'Not found', errors: {} });
    }
    return reply.sendFile('index.html', { maxAge: 0 });
  });
}

export default fp(webPlugin, { name: 'web' });
