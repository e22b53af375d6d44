import { isIP } from 'node:net';
import { z } from 'zod';

/** proxy-addr's names for address ranges, which Fastify's `trustProxy` list accepts beside addresses. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/**
 * Which proxies may tell the client's address in X-Forwarded-For: none when unset, else the listed
 * addresses and CIDR ranges. Not `true` (anyone) and not a hop count: a count cannot tell a proxy
 * from a client that connects directly, and Fastify 5.12 trusts nobody for one (docs/decisions/011).
 */
const trustProxySchema = z
  .string()
  .optional()
  .transform((value, ctx): false | string[] => {
    if (value === undefined) return false;
    const entries = value.split(',').map((e) => e.trim());
    if (entries.every(isAddressOrRange)) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        'must list the proxies in front of the portal as addresses or CIDR ranges, comma-separated (e.g. 10.0.0.0/8,127.0.0.1); hop counts and "true" are not accepted',
    });
    return z.NEVER;
  });

function isOriginOnly(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
}

const publicUrlSchema = z
  .url({ protocol: /^https?$/ })
  .refine(isOriginOnly, {
    message: 'must be an origin only, such as https://portal.example.com (no path, query or credentials)',
  })
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Port of Prometheus's `GET /metrics`, on HOST; unset, nothing answers scrapes (docs/decisions/031). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /** Public address of the portal: every link in an email, the Origin check, Secure cookies and HSTS. */
  PUBLIC_URL: publicUrlSchema,
  TRUST_PROXY: trustProxySchema,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  /** smtp(s)://… sends mail; file:///folder writes each mail as JSON there (development, tests). */
  SMTP_URL: z.string().optional(),
  /** Sign-in attempts allowed per client address per 15 minutes. */
  LOGIN_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  MAIL_FROM: z.string().default('Interview Credits Portal <no-reply@localhost>'),
  PRODUCT_URL: z.url().default('https://interview.example.com'),
  CHATBOT_URL: z.url().default('https://interview.example.com/chatbot'),
  /** Who takes payments. Unset: Razorpay when its keys are set, else the sandbox (never in production). */
  PAYMENT_PROVIDER: z.enum(['razorpay', 'sandbox']).optional(),
  RAZORPAY_KEY_ID: z.string().optional(),
  RAZORPAY_KEY_SECRET: z.string().optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** OTLP/HTTP collector (`http://collector:4318`): traces are exported there; unset, none are recorded. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * `on`: the billing cycle runs on a clock the platform operator can move forward
   * (`POST /api/auth/test-clock`), so browser tests see a month pass. Refused in production.
   */
  TEST_CLOCK: z.enum(['on']).optional(),
  WEB_DIST_DIR: z.string().optional(),
});

type ParsedEnv = z.infer<typeof envSchema>;

export interface Env extends ParsedEnv {
  /** PUBLIC_URL's origin, or http://localhost:PORT when it is unset (development and tests). */
  publicOrigin: string;
  /** The public address is https: cookies are Secure and HSTS is sent. */
  publicIsHttps: boolean;
  /** The provider that takes payments, resolved from PAYMENT_PROVIDER and the Razorpay keys. */
  paymentProvider: 'razorpay' | 'sandbox';
}

/** A configuration the portal refuses to start with; its message names the variables. */
export class ConfigError extends Error {
  constructor(lines: string[]) {
    super(`Invalid configuration:\n${lines.map((l) => `  ${l}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function resolvePaymentProvider(env: ParsedEnv, problems: string[]): Env['paymentProvider'] {
  const keys = [env.RAZORPAY_KEY_ID, env.RAZORPAY_KEY_SECRET].filter(Boolean).length;
  if (keys === 1) problems.push('RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET: set both, or neither');
  if (env.PAYMENT_PROVIDER === 'sandbox') return 'sandbox';
  if (env.PAYMENT_PROVIDER === 'razorpay') {
    if (keys < 2) problems.push('PAYMENT_PROVIDER=razorpay needs RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET');
    return 'razorpay';
  }
  if (keys === 2) return 'razorpay';
  if (env.NODE_ENV === 'production') {
    problems.push(
      'RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET are required when NODE_ENV=production; to take test payments through the built-in sandbox on purpose, set PAYMENT_PROVIDER=sandbox',
    );
  }
  return 'sandbox';
}

/**
 * Configuration, parsed once. Nothing else reads process.env. An empty variable counts as unset, so
 * `FOO=` in a shell or a test's environment clears an inherited value. Production refuses settings
 * that are only safe on a developer's machine.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    problems.push(
      'PUBLIC_URL is required when NODE_ENV=production (the address users open, e.g. https://portal.example.com)',
    );
  }
  if (env.NODE_ENV === 'production' && env.TEST_CLOCK) {
    problems.push('TEST_CLOCK moves the billing clock for tests; it cannot be set when NODE_ENV=production');
  }
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
    problems.push('METRICS_PORT must differ from PORT: metrics are answered on a port of their own');
  }
  const paymentProvider = resolvePaymentProvider(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const publicOrigin = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : `http://localhost:${env.PORT}`;
  return { ...env, publicOrigin, publicIsHttps: publicOrigin.startsWith('https:'), paymentProvider };
}
