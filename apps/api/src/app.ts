import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Database } from './db/client.js';
import type { Env } from './env.js';
import { createPasswordHasher, type HashCost } from './lib/passwords.js';
import { createResponseSerializerCompiler } from './lib/response-serializer.js';
import { mailAttachmentRenderer } from './modules/invoices/index.js';
import { createMailer } from './core/mail.js';
import { getOrCreateSecret } from './core/settings.repo.js';
import { createJobQueue } from './core/jobs.js';
import { createMetrics, type Metrics } from './core/metrics/index.js';
import accessPlugin from './plugins/access.js';
import { authenticateApiKey } from './modules/billing/index.js';
import { findSession } from './modules/sessions/index.js';
import errorsPlugin from './plugins/errors.js';
import overloadPlugin from './plugins/overload.js';
import metricsPlugin from './plugins/metrics.js';
import openapiPlugin from './plugins/openapi.js';
import securityHeadersPlugin from './plugins/security-headers.js';
import textGuardPlugin from './plugins/text-guard.js';
import webPlugin from './plugins/web.js';
import { jobDefinitions, registerModules } from './modules/index.js';
import { defaultConfig, type AppConfig } from './core/config.js';
import { OffsetClock, systemClock } from './core/clock.js';
import type { Deps } from './core/deps.js';
import { systemActor } from './core/actor.js';
import { deriveSecrets } from './core/secrets.js';
import { createWorkerPool } from './core/worker-pool.js';
import { createPaymentProvider } from './core/payments/index.js';
import { traceLogFields, type Tracing } from './core/tracing/index.js';

export interface BuildOptions {
  env: Env;
  database: Database;
  config?: Partial<AppConfig>;
  hashCost?: HashCost;
  logger?: FastifyServerOptions['logger'];
  serveWeb?: boolean;
  /** The server's, with the process's own metrics; otherwise the app makes its own. */
  metrics?: Metrics;
  /** Started by server.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set (core/tracing); unset, no spans. */
  tracing?: Tracing;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What services are handed (core/deps.ts); routes pass it as `fn(app.deps, actor, input)`. */
    deps: Deps;
  }
}

/**
 * Origins whose pages may send state-changing requests: the configured public origin only. Without
 * PUBLIC_URL (development) the loopback spellings of it too; production requires PUBLIC_URL.
 */
function allowedOrigins(env: Env): string[] {
  if (env.PUBLIC_URL) return [env.publicOrigin];
  return ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${env.PORT}`);
}

/** The one deps object every service is handed (core/deps.ts, docs/decisions/024). */
async function createDeps(options: BuildOptions, log: FastifyBaseLogger): Promise<Deps> {
  const { env, database } = options;
  // Before the mailer: a mail's attached invoice is rendered on the pool when the mail goes out.
  const workers = createWorkerPool();
  const sessionSecret = env.SESSION_SECRET ?? (await getOrCreateSecret(database.db, 'session_secret'));
  const config = { ...defaultConfig, ...options.config };
  const metrics = options.metrics ?? createMetrics();
  const jobs = createJobQueue({ db: database.db, config, log, metrics });
  return {
    db: database.db,
    dbKind: database.kind,
    env,
    config,
    log,
    hasher: createPasswordHasher(options.hashCost),
    mailer: createMailer({
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      messageIdHost: new URL(env.publicOrigin).hostname,
      log,
      jobs,
      renderAttachment: mailAttachmentRenderer(workers),
    }),
    workers,
    payments: await createPaymentProvider({ env, db: database.db }),
    secrets: deriveSecrets(sessionSecret),
    jobs,
    clock: env.TEST_CLOCK ? new OffsetClock() : systemClock,
    lifecycle: { draining: false },
    metrics,
  };
}

/** While tracing, each log line written in a span carries its `trace_id` and `span_id`. */
function loggerOptions(options: BuildOptions): FastifyServerOptions['logger'] {
  const logger = options.logger ?? { level: options.env.LOG_LEVEL };
  if (!options.tracing || typeof logger !== 'object') return logger;
  return { ...logger, mixin: traceLogFields };
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Builds the app without listening (server.ts listens; tests use app.inject()). */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(options),
    // X-Forwarded-* count only from the proxies named in TRUST_PROXY; unset, from nobody.
    trustProxy: options.env.TRUST_PROXY,
    bodyLimit: 1_048_576,
    // Hide framework details; the error handler shapes every answer.
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    createResponseSerializerCompiler({ checkAgainstZod: options.env.NODE_ENV !== 'production' }),
  );

  const deps = await createDeps(options, app.log);
  app.decorate('deps', deps);
  // Jobs start once every route is in place, and stop before the pools they use close.
  app.addHook('onReady', async () => deps.jobs.start(deps, jobDefinitions));
  app.addHook('onClose', async () => {
    await deps.jobs.stop(() => deps.mailer.close());
    await deps.workers.close();
  });
  // Lets plugins name `db` as a dependency.
  await app.register(fp(async () => {}, { name: 'db' }));

  // Before every other plugin and route, which it must see registered to trace them.
  if (options.tracing) await app.register(options.tracing.fastifyPlugin());
  // First, so it times every answer, the not-found and error handlers' too.
  await app.register(metricsPlugin, { metrics: deps.metrics, database: options.database });
  await app.register(errorsPlugin);
  await app.register(overloadPlugin, deps.config.overload);
  await app.register(securityHeadersPlugin, {
    https: options.env.publicIsHttps,
    razorpay: options.env.paymentProvider === 'razorpay',
  });
  await app.register(cookie);
  await app.register(openapiPlugin);
  // The access plugin imports no module: it is handed the session lookup and the API-key check.
  const accessCheck = systemActor('access');
  await app.register(accessPlugin, {
    allowedOrigins: allowedOrigins(options.env),
    findSession: (accessToken) => findSession(app.deps, accessCheck, { accessToken }),
    authenticateApiKey: (visitor, authorization) => authenticateApiKey(app.deps, visitor, { authorization }),
  });
  await app.register(textGuardPlugin);
  await registerModules(app);
  if (options.serveWeb) {
    await app.register(webPlugin, { distDir: options.env.WEB_DIST_DIR ?? defaultWebDist });
  }
  return app;
}
