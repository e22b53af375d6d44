import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

/** Serves the built web app, with index.html for every non-API path (client-side routes). */
async function webPlugin(app: FastifyInstance, options: { distDir: string }) {
  if (!existsSync(options.distDir)) {
    app.log.warn({ distDir: options.distDir }, 'web app not built; serving the API only');
    return;
  }
  await app.register(fastifyStatic, {
    root: options.distDir,
    wildcard: false,
    index: false,
    // The build writes .br and .gz beside each file (apps/web/precompress.ts).
    preCompressed: true,
    setHeaders(reply, path) {
      // Built assets carry a content hash in their name: a changed file gets a new name.
      if (path.includes(`${sep}assets${sep}`))
        reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  app.get('/*', (request, reply) => {
    // An unknown API path is the API's not-found (one answer, one metrics label), never the page.
    if (request.url.startsWith('/api/')) return reply.callNotFound();
    return reply.sendFile('index.html', { maxAge: 0 });
  });
}

export default fp(webPlugin, { name: 'web' });
