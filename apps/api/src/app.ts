import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Database, Db } from './db/client.js';
import type { Env } from './env.js';
import {
  answeringOtherRequest,
  createPasswordHasher,
  type HashCost,
  type PasswordHasher,
} from './lib/passwords.js';
import { lowerThreadpoolPriority } from './lib/thread-priority.js';
import { createResponseSerializerCompiler } from './lib/response-serializer.js';
import { createMailer, type Mailer } from './modules/mail/mail.service.js';
import { getOrCreateSecret } from './modules/platform/settings.repo.js';
import accessPlugin from './plugins/access.js';
import errorsPlugin from './plugins/errors.js';
import openapiPlugin from './plugins/openapi.js';
import webPlugin from './plugins/web.js';
import { registerModules } from './modules/index.js';

export interface AppConfig {
  sessionTtl: { accessMs: number; refreshMs: number };
  limits: {
    loginPerAddress: number;
    forgotPerAddress: number;
    windowMs: number;
    lockoutThreshold: number;
    lockoutMs: number;
  };
}

export const defaultConfig: AppConfig = {
  sessionTtl: { accessMs: 15 * 60_000, refreshMs: 7 * 24 * 3_600_000 },
  limits: {
    loginPerAddress: 50,
    forgotPerAddress: 10,
    windowMs: 15 * 60_000,
    lockoutThreshold: 5,
    lockoutMs: 15 * 60_000,
  },
};

export interface BuildOptions {
  env: Env;
  database: Database;
  config?: Partial<AppConfig>;
  hashCost?: HashCost;
  logger?: FastifyServerOptions['logger'];
  serveWeb?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
    db: Db;
    dbKind: Database['kind'];
    config: AppConfig;
    hasher: PasswordHasher;
    mailer: Mailer;
    secrets: { session: string };
  }
  interface FastifyContextConfig {
    /** The route's time is mostly a password hash: hashes make no room for it (lib/passwords.ts). */
    hashesPassword?: boolean;
  }
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Builds the app without listening (server.ts listens; tests use app.inject()). */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: options.env.LOG_LEVEL },
    trustProxy: true,
    bodyLimit: 1_048_576,
    // Hide framework details; the error handler shapes every answer.
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    createResponseSerializerCompiler({ checkAgainstZod: options.env.NODE_ENV !== 'production' }),
  );

  app.decorate('env', options.env);
  app.decorate('db', options.database.db);
  app.decorate('dbKind', options.database.kind);
  app.decorate('config', { ...defaultConfig, ...options.config });
  app.decorate('hasher', createPasswordHasher(options.hashCost));
  // Hashing yields the CPU to request handling when both want it (a sign-in flood).
  await lowerThreadpoolPriority();
  app.addHook('onRequest', (request, reply, done) => {
    // 'close' comes once the answer is written or the client has gone, whichever way it ended.
    if (!request.routeOptions.config.hashesPassword) reply.raw.once('close', answeringOtherRequest());
    done();
  });
  app.decorate(
    'mailer',
    createMailer({ smtpUrl: options.env.SMTP_URL, from: options.env.MAIL_FROM, log: app.log }),
  );
  app.decorate('secrets', {
    session: options.env.SESSION_SECRET ?? (await getOrCreateSecret(options.database.db, 'session_secret')),
  });
  // Lets plugins name `db` as a dependency.
  await app.register(fp(async () => {}, { name: 'db' }));

  await app.register(errorsPlugin);
  await app.register(cookie);
  await app.register(openapiPlugin);
  const allowedOrigins = options.env.PUBLIC_URL ? [new URL(options.env.PUBLIC_URL).origin] : [];
  await app.register(accessPlugin, { allowedOrigins });
  await registerModules(app);
  if (options.serveWeb) {
    await app.register(webPlugin, { distDir: options.env.WEB_DIST_DIR ?? defaultWebDist });
  }
  return app;
}
